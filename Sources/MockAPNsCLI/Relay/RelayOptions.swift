import APNsClient
import ArgumentParser
import Foundation
import HTTP2
import MockAPNs

/// The relay flags of `mockapns serve` (`@OptionGroup var relayOptions: RelayOptions`), each with its
/// `MOCKAPNS_<NAME>` fallback: where accepted device pushes go on to, and who the mock is to that upstream.
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

    /// The relay these flags describe, or nil without `--relay`; throws a sentence naming the flag to fix.
    func makeRelay(environment env: EnvironmentOptions) throws -> APNsClientRelay? {
        guard let url = relayURL ?? env["RELAY"] else { return nil }
        let keyFile = relayKeyFile ?? env["RELAY_KEY_FILE"]
        let certPath = relayCert ?? env["RELAY_CERT"]
        let certKeyPath = relayCertKey ?? env["RELAY_CERT_KEY"]
        var signingKey: APNsAuthentication?
        if let keyFile {
            guard let key = KeyFileArgument(keyFile) else {
                throw ValidationError("--relay-key-file must be TEAMID:KEYID:PATH, got \"\(keyFile)\"")
            }
            signingKey = .token(privateKeyPEM: try Self.read(key.path, flag: "--relay-key-file"), keyID: key.keyID,
                                teamID: key.teamID)
        }
        var certificateAuthentication: APNsAuthentication?
        switch (certPath, certKeyPath) {
        case let (cert?, key?):
            if keyFile != nil {
                throw ValidationError("--relay-key-file re-signs every push, so --relay-cert/--relay-cert-key would never be used: give one")
            }
            certificateAuthentication = .certificate(pem: try Self.read(cert, flag: "--relay-cert"),
                                                     privateKeyPEM: try Self.read(key, flag: "--relay-cert-key"))
        case (nil, nil):
            certificateAuthentication = nil
        default:
            throw ValidationError("--relay-cert and --relay-cert-key go together")
        }
        let seconds = try relayTimeout ?? env["RELAY_TIMEOUT"].map { text in
            guard let value = Double(text) else { throw ValidationError("MOCKAPNS_RELAY_TIMEOUT must be a number of seconds, got \"\(text)\"") }
            return value
        } ?? 10
        guard seconds > 0 else { throw ValidationError("--relay-timeout must be more than 0 seconds") }
        let connections = try relayConnections ?? env.int("RELAY_CONNECTIONS") ?? 2
        guard connections >= 1 else { throw ValidationError("--relay-connections must be at least 1") }
        let maxInFlight = try relayMaxInFlight ?? env.int("RELAY_MAX_IN_FLIGHT") ?? 1000
        guard maxInFlight >= 1 else { throw ValidationError("--relay-max-in-flight must be at least 1") }
        let caPath = relayCA ?? env["RELAY_CA"]
        let trust = try caPath.map { try Self.read($0, flag: "--relay-ca") }
        @Sendable func client(_ authentication: APNsAuthentication, connections: Int, group: EventLoopGroup? = nil) throws -> APNsClient {
            let configuration = APNsClientConfiguration(
                environment: .custom(url: url), authentication: authentication, trustRootsPEM: trust,
                connections: connections, requestTimeout: .milliseconds(Int64(seconds * 1000)), retryPolicy: .never,
                connectTimeout: .milliseconds(Int64(min(seconds, 10) * 1000)), eventLoopThreads: 1)
            do {
                return try APNsClient(configuration: configuration, group: group)
            } catch {
                throw ValidationError("--relay \(url): \(error)")
            }
        }
        let tokens: APNsClientRelay.TokenRoute
        if let signingKey {
            tokens = .resign(try client(signingKey, connections: connections))
        } else {
            // A connection per sender token (APNs ties a token to its connection); --relay-connections bounds how
            // many senders' tokens are kept connected at once.
            do {
                _ = try APNsEndpoint.custom(url: url).address()   // a bad URL is said now, not on the first push
            } catch {
                throw ValidationError("--relay \(url): \(error)")
            }
            // One event loop for every sender's connection: no thread per forwarded token.
            let loops: EventLoopGroup
            do {
                loops = try EventLoopGroup(threads: 1)
            } catch {
                throw ValidationError("--relay: could not start an event loop: \(error)")
            }
            tokens = .forward(ForwardingClients(limit: max(connections, 8), group: loops) {
                try client(.perNotification, connections: 1, group: loops)
            })
        }
        return APNsClientRelay(upstream: url, tokens: tokens,
                               certificateClient: try certificateAuthentication.map { try client($0, connections: connections) },
                               maxInFlight: maxInFlight)
    }

    private static func read(_ path: String, flag: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(flag): cannot read \(path) (missing, unreadable or not text)")
        }
        return text
    }
}
