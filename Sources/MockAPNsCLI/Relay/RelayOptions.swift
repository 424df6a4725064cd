import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsRelay

/// The relay flags of `mockapns serve` (`@OptionGroup var relayOptions: RelayOptions`), each with its
/// `MOCKAPNS_<NAME>` fallback: where accepted device pushes go on to, and who the mock is to that upstream. They
/// become a `RelayConfiguration` (files read) and the relay is `MockAPNsRelay`'s, its errors said as the flag to fix.
struct RelayOptions: ParsableArguments {
    @Option(name: .customLong("relay"), help: ArgumentHelp(
        "Send every device push the mock accepts on to this APNs (e.g. https://api.sandbox.push.apple.com) and answer the sender with its answer.",
        valueName: "url"))
    var relayURL: String?

    @Option(name: .customLong("relay-key-file"), help: ArgumentHelp(
        "Re-sign every relayed push with this .p8 key: TEAMID:KEYID:PATH (one token per 50 minutes, not per push); without it each sender's own token is forwarded.", valueName: "key"))
    var relayKeyFile: String?

    @Option(name: .customLong("relay-cert"), help: ArgumentHelp("The mock's client certificate (PEM) for relaying certificate-authenticated pushes (a certificate cannot be forwarded).", valueName: "path"))
    var relayCert: String?

    @Option(name: .customLong("relay-cert-key"), help: ArgumentHelp("The private key (PEM) of --relay-cert.", valueName: "path"))
    var relayCertKey: String?

    @Option(name: .customLong("relay-ca"), help: ArgumentHelp("Trust this CA (PEM) for the upstream instead of the system store (a private upstream).", valueName: "path"))
    var relayCA: String?

    @Option(name: .customLong("relay-timeout"), help: ArgumentHelp("Seconds a relayed push may take upstream, connecting included, before the sender gets 503 (default 10).", valueName: "seconds"))
    var relayTimeout: Double?

    @Option(name: .customLong("relay-connections"), help: ArgumentHelp("Long-lived connections to the upstream (default 2).", valueName: "count"))
    var relayConnections: Int?

    @Option(name: .customLong("relay-max-in-flight"), help: ArgumentHelp("Pushes upstream at once; more are answered 429 TooManyRequests at once (default 1000).", valueName: "count"))
    var relayMaxInFlight: Int?

    @Option(name: .customLong("relay-match"), help: ArgumentHelp(
        "Relay only the accepted device pushes matching this search (the dashboard's grammar, e.g. \"topic:com.example.app\"); the others the mock answers itself.",
        valueName: "query"))
    var relayMatch: String?

    @Flag(name: .customLong("relay-rejected"), help: ArgumentHelp(
        "Relay device pushes the mock rejects too (the sender gets the upstream's answer, the record keeps both)."))
    var relayRejected = false

    /// `--relay-match` parsed (empty: every push), or a usage error naming the flag.
    func match(environment env: EnvironmentOptions) throws -> SearchQuery {
        guard let text = relayMatch ?? env["RELAY_MATCH"] else { return SearchQuery() }
        do {
            return try SearchQuery(parsing: text)
        } catch {
            throw ValidationError("--relay-match \"\(text)\": \(error)")
        }
    }

    @Flag(name: .customLong("record-credentials"), help: ArgumentHelp(
        "Keep relayed pushes' provider tokens whole in the records (default: their signature is cut off, as they reached a real APNs)."))
    var recordCredentials = false

    /// The relay these flags describe, or nil without `--relay`; throws a sentence naming the flag to fix. No
    /// connection opens before the first relayed push.
    func makeRelay(environment env: EnvironmentOptions) throws -> APNsClientRelay? {
        guard let configuration = try configuration(environment: env) else { return nil }
        do {
            return try APNsClientRelay(configuration: configuration)
        } catch {
            throw ValidationError(message(for: error, environment: env))
        }
    }

    /// The relay configuration these flags and `MOCKAPNS_RELAY*` describe, files read; nil without `--relay`.
    func configuration(environment env: EnvironmentOptions) throws -> RelayConfiguration? {
        guard let url = relayURL ?? env["RELAY"] else { return nil }
        let keyFile = relayKeyFile ?? env["RELAY_KEY_FILE"]
        let certPath = relayCert ?? env["RELAY_CERT"]
        let certKeyPath = relayCertKey ?? env["RELAY_CERT_KEY"]
        var configuration = RelayConfiguration(upstream: .custom(url: url))
        switch (keyFile, certPath, certKeyPath) {
        case (let keyFile?, nil, nil):
            guard let key = KeyFileArgument(keyFile) else {
                throw ValidationError("--relay-key-file must be TEAMID:KEYID:PATH, got \"\(keyFile)\"")
            }
            configuration.credentials = .resign(privateKeyPEM: try Self.read(key.path, flag: "--relay-key-file"),
                                                keyID: key.keyID, teamID: key.teamID)
        case (_?, _?, _?):
            throw ValidationError("--relay-key-file re-signs every push, so --relay-cert/--relay-cert-key would never be used: give one")
        case (nil, let cert?, let key?):
            configuration.credentials = .forward(clientCertificate: RelayClientCertificate(
                certificatePEM: try Self.read(cert, flag: "--relay-cert"), privateKeyPEM: try Self.read(key, flag: "--relay-cert-key")))
        case (nil, nil, nil):
            configuration.credentials = .forward()
        default:
            throw ValidationError("--relay-cert and --relay-cert-key go together")
        }
        configuration.trustRootsPEM = try (relayCA ?? env["RELAY_CA"]).map { try Self.read($0, flag: "--relay-ca") }
        let seconds = try relayTimeout ?? env["RELAY_TIMEOUT"].map { text in
            guard let value = Double(text) else { throw ValidationError("MOCKAPNS_RELAY_TIMEOUT must be a number of seconds, got \"\(text)\"") }
            return value
        } ?? 10
        // Whole milliseconds; nil past Int64 (or for inf and NaN), so no value traps.
        guard let milliseconds = Int64(exactly: (seconds * 1000).rounded()) else {
            throw ValidationError("--relay-timeout \(seconds) is out of range: give a number of seconds such as 10")
        }
        configuration.timeout = .milliseconds(milliseconds)
        configuration.connections = try relayConnections ?? env.int("RELAY_CONNECTIONS") ?? configuration.connections
        configuration.maxInFlight = try relayMaxInFlight ?? env.int("RELAY_MAX_IN_FLIGHT") ?? configuration.maxInFlight
        return configuration
    }

    /// `error` as the flag to fix: the relay module names the configuration's field, `serve` its flag.
    private func message(for error: RelayConfigurationError, environment env: EnvironmentOptions) -> String {
        func given(_ flag: String?, _ variable: String) -> String { (flag ?? env[variable]).map { " " + $0 } ?? "" }
        switch error {
        case .invalidUpstream(let why): return "--relay \(why)"
        case .invalidSigningKey(let why): return "--relay-key-file\(given(relayKeyFile, "RELAY_KEY_FILE")): \(why)"
        case .invalidClientCertificate(let why): return "--relay-cert\(given(relayCert, "RELAY_CERT")): \(why)"
        case .invalidTrustRoots(let why): return "--relay-ca\(given(relayCA, "RELAY_CA")): \(why)"
        case .invalidTimeout: return "--relay-timeout must be more than 0 seconds"
        case .invalidConnections: return "--relay-connections must be at least 1"
        case .invalidMaxInFlight: return "--relay-max-in-flight must be at least 1"
        case .cannotStart(let why): return "--relay: \(why)"
        }
    }

    private static func read(_ path: String, flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(flag): cannot read \(path) (missing, unreadable or not text)")
        }
        return text
    }
}
