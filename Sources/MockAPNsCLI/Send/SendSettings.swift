import APNsClient
import APNsModel
import Foundation
import MockAPNs

/// What `mockapns send` will do, resolved from its flags: the client configuration, the notification, and how
/// many to send how concurrently. Every problem is a usage error (exit 2).
struct SendSettings {
    /// The local mock `serve` listens on by default.
    static let defaultURL = "https://127.0.0.1:2197"

    /// One client configuration per `--url`, in the order given; never empty.
    var configurations: [APNsClientConfiguration]
    /// The pushes: which token and body each one gets.
    var plan: SendPlan
    var count: Int
    var concurrency: Int
    /// How long the endpoint may stay unreachable before the run gives up (`--give-up-after`).
    var giveUpAfter: Duration

    /// Resolves the flags of `command`.
    init(_ command: SendCommand) throws(CommandFailure) {
        guard command.count >= 1 else { throw .usage("--count must be at least 1") }
        guard command.concurrency >= 1 else { throw .usage("--concurrency must be at least 1") }
        guard command.connections >= 1 else { throw .usage("--connections must be at least 1") }
        if let loops = command.loops, loops < 1 { throw .usage("--loops must be at least 1") }
        guard command.giveUpAfter > 0, command.giveUpAfter.isFinite else {
            throw .usage("--give-up-after must be a number of seconds above 0, e.g. 10")
        }
        giveUpAfter = .milliseconds(Int64((command.giveUpAfter * 1000).rounded(.up)))
        let tokens: [String]
        switch (command.token, command.tokenFile) {
        case (let token?, nil):
            guard !token.isEmpty else { throw .usage("--token needs the device token in hex") }
            tokens = [token]
        case (nil, let path?):
            tokens = SendPlan.tokens(inFile: try Self.read(path, what: "--token-file"))
            guard !tokens.isEmpty else { throw .usage("--token-file \(path) holds no device token") }
        case (.some, .some):
            throw .usage("use either --token or --token-file")
        case (nil, nil):
            throw .usage("--token (or --token-file) is required")
        }
        count = command.count
        concurrency = min(command.concurrency, command.count)

        let file: PayloadFile
        do {
            file = try PayloadFile.load(path: command.payload)
        } catch {
            throw .usage(error.description)
        }
        let headers = try command.headers.resolve()
        guard let bundle = headers.topic ?? file.targetBundle else {
            throw .usage("--topic is required (or use an .apns file with a \"Simulator Target Bundle\")")
        }
        let body = Array(file.payload.jsonText().utf8)
        let pushType = headers.pushType ?? PushTypeInference.infer(topic: bundle, body: body)
        var extra: [HeaderField] = []
        if let priority = headers.priority { extra.append(HeaderField(name: "apns-priority", value: String(priority.rawValue))) }
        if command.payloadTemplate, SendPlan.split(body, at: SendPlan.placeholder).count == 1 {
            throw .usage("--payload-template: the payload has no {{n}} to replace")
        }
        plan = SendPlan(tokens: tokens, notification: APNsRawNotification(
            pushType: pushType.rawValue, topic: APNsNotification.topic(bundleID: bundle, pushType: pushType),
            payload: body, headers: extra), template: command.payloadTemplate)

        let urls = command.url.isEmpty ? [Self.defaultURL] : command.url
        guard Set(urls).count == urls.count else { throw .usage("--url: each server once (a URL is repeated)") }
        let local = command.url.isEmpty || urls.allSatisfy(Self.isLocal)
        let credentials = local ? try? BundledCredentials.locate() : nil
        let authentication = try Self.authentication(command, bundled: credentials)
        var trust: String?
        if let ca = command.ca {
            trust = try Self.read(ca, what: "--ca")
        } else if let credentials {
            trust = try Self.read(credentials.caPath, what: "the bundled CA")
        }
        configurations = []
        for url in urls {
            let configuration = APNsClientConfiguration(
                environment: .custom(url: url), authentication: authentication, trustRootsPEM: trust,
                connections: command.connections, requestTimeout: .seconds(command.timeout),
                eventLoopThreads: command.loops ?? 1)
            do {
                _ = try configuration.environment.address()
            } catch {
                throw .usage("--url \(url): \(error)")
            }
            configurations.append(configuration)
        }
    }

    private static func authentication(_ command: SendCommand, bundled: BundledCredentials?) throws(CommandFailure)
        -> APNsAuthentication
    {
        if let keyFile = command.keyFile {
            guard command.cert == nil, command.certKey == nil else { throw .usage("use either --key-file or --cert/--cert-key") }
            guard let key = KeyFileArgument(keyFile) else {
                throw .usage("--key-file takes TEAMID:KEYID:PATH, e.g. TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8")
            }
            return .token(privateKeyPEM: try read(key.path, what: "--key-file"), keyID: key.keyID, teamID: key.teamID)
        }
        if command.cert != nil || command.certKey != nil {
            guard let cert = command.cert, let key = command.certKey else { throw .usage("--cert and --cert-key go together") }
            return .certificate(pem: try read(cert, what: "--cert"), privateKeyPEM: try read(key, what: "--cert-key"))
        }
        guard let bundled else {
            throw .usage("give --key-file TEAMID:KEYID:PATH or --cert/--cert-key (the bundled test key is only used for a local mock)")
        }
        return .token(privateKeyPEM: try read(bundled.directory + "/AuthKey_TESTKEY001.p8", what: "the bundled key"),
                      keyID: "TESTKEY001", teamID: "TESTTEAM01")
    }

    /// Whether `url` points at this machine (where the bundled test credentials make sense).
    static func isLocal(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
    }

    private static func read(_ path: String, what: String) throws(CommandFailure) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .usage("\(what) \(path): " + (FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"))
        }
    }
}
