import ArgumentParser
import Foundation
import Logging
import MockAPNs
import MockAPNsFCM
import MockAPNsHTTP2
import MockAPNsRecording
import ServiceLifecycle

/// The FCM front door's flags of `mockapns serve` (docs/fcm.md), each with its `MOCKAPNS_<NAME>` fallback.
struct FCMServeOptions: ParsableArguments {
    @Flag(name: .customLong("fcm"), help: ArgumentHelp(
        "Also serve Firebase Cloud Messaging (HTTP v1), its OAuth token exchange and IID topic management under Google's names (fcm.googleapis.com, oauth2.googleapis.com, iid.googleapis.com), so an unmodified firebase-admin sender reaches the mock; iOS messages become the APNs pushes FCM sends, through this mock (docs/fcm.md). TLS from the private CA of --ca-dir, else $XDG_DATA_HOME/mockapns/apple-hosts-ca. MOCKAPNS_FCM=1."))
    var fcm = false
    @Option(name: .customLong("fcm-port"), help: ArgumentHelp("With --fcm: the mock's own FCM port, for senders given a URL (default 2199; 0 picks a free port).", valueName: "port"))
    var fcmPort: Int?
    @Option(name: .customLong("fcm-https-port"), help: ArgumentHelp("With --fcm: the port behind Google's names (default 443; 0 picks a free port).", valueName: "port"))
    var fcmHTTPSPort: Int?
    @Option(name: .customLong("fcm-service-account"), help: ArgumentHelp("With --fcm: trust this service-account key file's key for its project (its public key only). Repeatable.", valueName: "file"))
    var serviceAccounts: [String] = []
    @Option(name: .customLong("fcm-apns-key"), help: ArgumentHelp("With --fcm: sign a project's iOS messages with this APNs key, [PROJECT=]TEAM:KEY:PATH.p8 (no PROJECT: every project); the mock must trust it (--key-file). Default: the bundled test key. Repeatable.", valueName: "key"))
    var apnsKeys: [String] = []
    @Flag(name: .customLong("fcm-accept-any-token"), help: "With --fcm: a well-formed registration token the mock never issued is a live iPhone of the bundle com.example.app, instead of 404 UNREGISTERED.")
    var acceptAnyToken = false

    /// Whether the front door is on.
    func enabled(_ environment: EnvironmentOptions) -> Bool { fcm || environment.bool("FCM") }

    /// The front door's configuration, or nil without `--fcm`; usage errors for bad values or flags without `--fcm`.
    /// `freePorts` (serve's `--port 0`) makes the ports default to free ones.
    func configuration(environment env: EnvironmentOptions, host: String, freePorts: Bool) throws -> FCMConfiguration? {
        let ports = [("--fcm-port", fcmPort, "FCM_PORT"), ("--fcm-https-port", fcmHTTPSPort, "FCM_HTTPS_PORT")]
        guard enabled(env) else {
            if let given = ports.first(where: { $0.1 != nil })?.0 ?? (serviceAccounts.isEmpty ? nil : "--fcm-service-account")
                ?? (apnsKeys.isEmpty ? nil : "--fcm-apns-key") ?? (acceptAnyToken ? "--fcm-accept-any-token" : nil) {
                throw ValidationError("\(given) goes with --fcm")
            }
            return nil
        }
        var configuration = FCMConfiguration()
        configuration.host = host
        var values: [Int?] = []
        for (flag, value, variable) in ports {
            let port = try value ?? env.int(variable)
            if let port, !(0...65_535).contains(port) { throw ValidationError("\(flag) must be a port from 0 to 65535, got \(port)") }
            values.append(port)
        }
        configuration.port = values[0] ?? (freePorts ? 0 : FCMConfiguration.defaultPort)
        configuration.googlePort = values[1] ?? (freePorts ? 0 : 443)
        configuration.trustedServiceAccountFiles = serviceAccounts
            + (env["FCM_SERVICE_ACCOUNT"].map { $0.split(separator: ",").map(String.init) } ?? [])
        for argument in apnsKeys + (env["FCM_APNS_KEY"].map { $0.split(separator: ",").map(String.init) } ?? []) {
            guard let (project, key) = APNsSigningKeyFile.parse(argument) else {
                throw ValidationError("--fcm-apns-key must be [PROJECT=]TEAM:KEY:PATH.p8, got \"\(argument)\"")
            }
            configuration.apnsKeys[project] = key
        }
        if acceptAnyToken || env.bool("FCM_ACCEPT_ANY_TOKEN") { configuration.acceptAnyToken = .ios }
        configuration.dataDirectory = UserDataDirectory.path(environment: env.variables).map { $0 + "/fcm" }
        return configuration
    }

    /// Whether Google's port is Apple's too (`applePort`, under `--apple-hosts`): one port for both names, told apart
    /// by each ClientHello's server name.
    static func sharesPort(_ configuration: FCMConfiguration, applePort: Int?) -> Bool {
        guard let google = configuration.googlePort else { return false }
        return google != 0 && google == applePort
    }

    /// The front door and its listeners (the mock's own port, then Google's), each presenting a certificate for
    /// Google's names and `extraNames` (`--tls-name`: the names senders reach the mock by, such as a network alias)
    /// from the private CA in `authorityDirectory`. When Google's port is Apple's too (`applePort`, under
    /// `--apple-hosts`), it has no listener of its own: the APNs listener hands the connections naming Google's
    /// names to the mock's own FCM listener (`shared`).
    static func make(mock: Mock, configuration: FCMConfiguration, store: (any FCMRecordStore)?, authorityDirectory: String,
                     extraNames: [String], applePort: Int?, logger: Logger) throws -> FCMParts {
        let identity = try ServerIdentity.issue(names: FCMIdentity.googleNames + extraNames, authorityDirectory: authorityDirectory)
        let ca = identity.certificateAuthorityPath ?? authorityDirectory + "/ca.pem"
        let tls = FCMIdentity(certificateChainPEM: identity.certificateChainPEM, privateKeyPEM: identity.privateKeyPEM,
                              certificateAuthorityPath: ca)
        let frontDoor = try FCMFrontDoor(mock: mock, configuration: configuration, store: store, logger: logger)
        // `serve` says where the front door listens itself; the listeners (and the HTTP/2 server under them) speak up at
        // warning, or at debug and trace when asked for.
        var quiet = logger
        if quiet.logLevel > .debug { quiet.logLevel = .warning }
        let own = try FCMListener(frontDoor: frontDoor, role: .own, host: configuration.host, port: configuration.port,
                                  identity: tls, logger: quiet)
        var parts = FCMParts(frontDoor: frontDoor, listeners: [own], caFile: ca)
        if let google = configuration.googlePort {
            if sharesPort(configuration, applePort: applePort) {
                parts.shared = SharedPort(port: google, names: FCMIdentity.googleNames) { channel in own.adopt(channel) }
            } else {
                parts.listeners.append(try FCMListener(frontDoor: frontDoor, role: .google, host: configuration.host, port: google,
                                                       identity: tls, logger: quiet))
            }
        }
        return parts
    }
}

/// What `serve --fcm` runs: the front door, its listeners, the CA senders trust, and Google's names on Apple's port
/// when the two share one.
struct FCMParts: Sendable {
    var frontDoor: FCMFrontDoor
    var listeners: [FCMListener]
    var caFile: String
    /// Google's names on the APNs listener's port (nil: on a listener of their own, or not served).
    var shared: SharedPort?
}

/// A running front door's part of the ready file, once its listeners are bound.
struct FCMReadiness: Sendable {
    var url: String
    var ports: [String: Int]
    var serviceAccount: String?

    /// Waits for `parts`' listeners to bind; `sharedPort` is the bound port Google's names share with Apple's.
    static func wait(_ parts: FCMParts, host: String, sharedPort: Int?) async throws -> FCMReadiness {
        var own = 0
        var ports: [String: Int] = [:]
        if let sharedPort { ports["443"] = sharedPort }
        for listener in parts.listeners {
            let port = try await listener.waitUntilListening()
            if listener.role == .own { own = port } else { ports["443"] = port }
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return FCMReadiness(url: "https://\(shown):\(own)", ports: ports, serviceAccount: parts.frontDoor.defaultServiceAccountPath)
    }
}
