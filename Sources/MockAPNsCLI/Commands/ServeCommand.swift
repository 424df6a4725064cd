import APNsModel
import ArgumentParser
import Foundation
import HTTP2
import Logging
import MockAPNs
import MockAPNsFCM
import MockAPNsHTTP2
import MockAPNsPostgres
import MockAPNsRelay
import Support
import ServiceLifecycle

/// `mockapns serve`: runs the mock until SIGINT/SIGTERM, which flush the recording and exit 0 (3 when a record could
/// not be written to the `--record` file or the `--store`). SIGHUP and SIGUSR1 reopen the `--record` file (rename
/// rotation).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the mock APNs server.",
        discussion: """
            Defaults: TLS on 127.0.0.1:2197 (HTTP/2 with or without ALPN) using the bundled test certificate, \
            the bundled test keys trusted, development environment. Every option can also be set as an \
            environment variable MOCKAPNS_<NAME> (e.g. MOCKAPNS_PORT=0, MOCKAPNS_RECORD=rec.jsonl).
            """
    )

    @Option(help: "Address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "Port (default 2197; 0 picks a free port).") var port: Int?
    @Flag(help: "Serve TLS (the default).") var tls = false
    @Flag(help: "Serve HTTP/2 over plain TCP with prior knowledge instead of TLS.") var h2c = false
    @Option(help: "Server certificate chain, PEM (default: bundled certs/server.pem).") var cert: String?
    @Option(help: "Server private key, PEM (default: bundled certs/server-key.pem).") var key: String?
    @Option(help: "CA for client certificates, PEM (default: bundled certs/ca.pem).") var ca: String?
    @Option(name: .customLong("tls-name"), help: ArgumentHelp(
        "Issue a fresh server certificate at start for this host name or IP (plus localhost, 127.0.0.1, ::1), signed by the bundled test CA or --ca-dir's; @hostname is this machine's (a container's) host name. Repeatable; MOCKAPNS_TLS_NAMES=a,b.",
        valueName: "name"))
    var tlsNames: [String] = []
    @Option(name: .customLong("ca-dir"), help: ArgumentHelp(
        "Sign the server certificate with a CA of this mock's own, made in DIR on first use and kept (ca.pem, ca-key.pem), instead of the bundled test CA.",
        valueName: "dir"))
    var caDir: String?
    @Flag(name: .customLong("apple-hosts"), help: ArgumentHelp(
        "Serve Apple's own host names (api.push.apple.com, api.sandbox…, api.development…, api-manage-broadcast…) so an unmodified sender reaches the mock once its process trusts the CA and routes the names here (docs/unmodified-senders.md): pushes on --port and --apple-https-port, channel management on --manage-sandbox-port and --manage-production-port, the environment from the host name. Signed by --ca-dir's CA, else one made once in $XDG_DATA_HOME/mockapns/apple-hosts-ca; never the bundled CA. MOCKAPNS_APPLE_HOSTS=1."))
    var appleHosts = false
    @Option(name: .customLong("apple-https-port"), help: "With --apple-hosts: Apple's HTTPS port for pushes (default 443; 0 picks a free port).")
    var appleHTTPSPort: Int?
    @Option(name: .customLong("manage-sandbox-port"), help: "With --apple-hosts: sandbox channel management, api-manage-broadcast.sandbox.push.apple.com (default 2195; 0 picks a free port).")
    var manageSandboxPort: Int?
    @Option(name: .customLong("manage-production-port"), help: "With --apple-hosts: production channel management, api-manage-broadcast.push.apple.com (default 2196; 0 picks a free port).")
    var manageProductionPort: Int?
    @Option(name: .customLong("key-file"), help: "Trust a signing key: TEAMID:KEYID:PATH[:development|production|both][:topic,topic…] (topics: a topic-specific key). Repeatable.")
    var keyFiles: [String] = []
    @Flag(help: "Check JWT shape, claims and time, but not signatures.") var trustAnySignature = false
    @Option(help: "development (answers carry apns-unique-id) or production (default development).") var environment: String?
    @Option(help: "Reason for a key of the other environment: BadEnvironmentKeyIdInToken (documented, default) or BadEnvironmentKeyInToken.")
    var environmentKeyReason: String?
    @Option(help: "MAX_CONCURRENT_STREAMS once a connection is authenticated (default 1000).") var maxConcurrentStreams: Int?
    @Option(help: "Most client connections open at once; more are closed as they arrive (default 10000).") var maxConnections: Int?
    @Option(help: "Close connections idle (no traffic, no open stream) this many seconds, with GOAWAY IdleTimeout; 0 = never (default 3600).")
    var idleTimeout: Int?
    @Option(help: "JSON file of device states (unregistered, expired, topics, otherEnvironment, rateLimited).") var devices: String?
    @Option(help: "JSON file of fault rules.") var faults: String?
    @Option(help: "Append every record to this JSON Lines file.") var record: String?
    @Flag(help: "Answer each request only once its record is written to the --record file and committed to the --store (no loss on a crash; slower).")
    var recordSync = false
    @Option(help: "Records kept in memory (default 50000).") var memoryLimit: Int?
    @Option(help: "Records the --record file's and the --store's writer each queue before the APNs listeners stop reading new requests until it catches up (default 65536).")
    var recordQueue: Int?
    @Option(help: "Event-loop threads of the APNs listeners' own, HTTP/2's and HTTP/1.1's each (default: the process's shared loops, one per core).") var loops: Int?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).") var logLevel: String?
    @Option(help: ArgumentHelp(
        "Once every listener is up, write {apns_url, control_url, http1_url, dashboard_url, ca_file, pid, version} here (atomically; removed at start and exit). `mockapns wait --ready-file PATH` waits for it.",
        valueName: "path"))
    var readyFile: String?
    @Flag(help: "No per-request log line (they are printed at --log-level info and below).") var quiet = false
    @OptionGroup var control: ControlPlaneOptions
    @OptionGroup var storeOptions: StoreServeOptions
    @OptionGroup var relayOptions: RelayOptions
    @OptionGroup var webhookOptions: WebhookOptions
    @OptionGroup var fcmOptions: FCMServeOptions

    func run() async throws {
        AllocatorTuning.apply(environment: ProcessInfo.processInfo.environment)
        ReopenSignalService.ignoreUntilRunning()
        let env = EnvironmentOptions()
        let configuration = try serveConfiguration(environment: env)
        let logger = configuration.deployment.mock.logger
        let readyPath = readyFile ?? env["READY_FILE"]
        if let readyPath { ReadyFile.remove(at: readyPath) }   // a stale one would hand a script old URLs
        do {
            try await serve(configuration.deployment, fcm: configuration.fcm, readyPath: readyPath, environment: env,
                            logger: logger)
        } catch let failure as ServeFailure {
            FileHandle.standardError.write(Data("mockapns: \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Builds every long-lived part in dependency order and runs them as one ``MockServiceGroup`` until SIGINT or
    /// SIGTERM; whatever fails (a port in use, the store, the ready file) stops what had started, in reverse order,
    /// and comes back as a ``ServeFailure``. Exits 3 when a record could not be written.
    private func serve(_ flags: MockDeployment, fcm fcmSettings: FCMConfiguration?, readyPath: String?,
                       environment env: EnvironmentOptions, logger: Logger) async throws {
        var configuration = flags
        // No connection yet: the relay's pool dials on the first relayed push.
        let relay = try relayOptions.makeRelay(environment: env)
        if let relay {
            var settings = RelaySettings(upstream: relay)
            settings.recordsCredentials = relayOptions.recordCredentials || env.bool("RECORD_CREDENTIALS")
            settings.match = try relayOptions.match(environment: env)
            settings.relaysRejected = relayOptions.relayRejected || env.bool("RELAY_REJECTED")
            configuration.mock.relay = settings
        } else if relayOptions.relayMatch != nil || relayOptions.relayRejected {
            throw ValidationError("--relay-match and --relay-rejected go with --relay URL")
        }
        let webhookTargets = try webhookOptions.targets(environment: env)
        configuration.mock.webhooks = webhookTargets.enumerated().map { WebhookStatistics(index: $0.offset, target: $0.element.url) }
        // Before anything listens: a wrong URL, password or schema stops the mock with one line.
        let store = try await storeOptions.open(environment: env, synchronousCommit: configuration.mock.recordSync)
        // Device states and fault rules are shared through the same database and namespace.
        let sharedState = store.map { PostgresSharedState(url: $0.url, namespace: $0.namespace, events: $0.events) }
        configuration.mock.recordStore = store
        configuration.mock.sharedState = sharedState
        // The control plane reads the store over a connection of its own, so searches never queue behind the writer.
        let storeReader = store.map { PostgresRecordStore(url: $0.url, instance: $0.instance, namespace: $0.namespace, events: $0.events,
                                                          logger: StoreLogger.make()) }
        // The connections opened above: closed last by the group, or at once if the group is never made.
        let closeConnections: @Sendable () async -> Void = {
            await sharedState?.close()
            await store?.close()
            await storeReader?.close()
        }
        let storeClosing: [any Service] = store == nil ? [] : [ClosingService("store connections", close: closeConnections)]

        let mock: Mock
        let server: APNsHTTP2Listener
        let plane: ControlPlaneListeners
        var fcm: FCMParts?
        do {
            mock = try Mock(configuration: configuration.mock)
            if let settings = fcmSettings {
                // The FCM records are written over the reader's store, on a connection of their own.
                fcm = try FCMServeOptions.make(mock: mock, configuration: settings, store: storeReader,
                                               authorityDirectory: try Self.fcmAuthorityDirectory(configuration, environment: env),
                                               extraNames: configuration.listener.tls?.names ?? [],
                                               applePort: configuration.listener.appleHosts?.httpsPort, logger: logger)
            }
            server = try APNsHTTP2Listener(mock: mock, configuration: configuration.listener, sharedPort: fcm?.shared)
            plane = try ControlPlaneListeners(mock: mock, server: server, deployment: configuration,
                                              sharedRecords: storeReader, fcm: fcm?.frontDoor)
        } catch {
            // Nothing runs yet: only the connections opened above are to close.
            await relay?.shutdown()
            await closeConnections()
            if error is ValidationError { throw error }
            throw ServeFailure("cannot start: \(error)")
        }
        let settled = configuration
        let webhooks = RunningWebhooks(targets: webhookTargets, statistics: mock.configuration.webhooks,
                                       recorder: mock.recorder, logger: logger)
        for target in webhookTargets {
            let match = target.match.terms.isEmpty ? "every record" : "records matching the --webhook-match query"
            FileHandle.standardError.write(Data("mockapns: posting \(match) to \(target.url)\n".utf8))
        }
        let sharedService = try sharedState.map { shared in
            SharedStateService(shared: shared, mock: mock, resync: try storeOptions.resync(environment: env))
        }
        let pruner = try storeOptions.pruner(store, recorder: mock.recorder, environment: env)
        let requestLog = quiet || env.bool("QUIET") ? nil : RequestLogService(recorder: mock.recorder, logger: logger)
        let apns = ServeListener(server, name: "the APNs endpoint") { error in
            Self.explain(error, appleHosts: settled.listener.appleHosts)
        }
        let namesInstanceByAddress = storeOptions.namesInstanceByAddress(env)
        let fcmParts = fcm
        let announce = ServeReadiness(waitForListeners: {
            try await server.waitUntilListening()
            let urls = try await plane.urls()
            var fcmReady: FCMReadiness?
            if let parts = fcmParts {
                let shared = parts.shared == nil ? nil : server.applePorts[443]
                fcmReady = try await FCMReadiness.wait(parts, host: fcmSettings?.host ?? "127.0.0.1", sharedPort: shared)
            }
            try await sharedService?.ready.value()
            if let store, namesInstanceByAddress {
                // The reader writes the FCM records: it names the same instance.
                let instance = "\(ProcessInfo.processInfo.hostName):\(server.port)"
                store.rename(instance: instance)
                storeReader?.rename(instance: instance)
            }
            var announcement = Self.announcement(configuration: settled, server: server, urls: urls, relay: relay)
            if let fcmReady, let parts = fcmParts {
                announcement.file.fcmURL = fcmReady.url
                announcement.file.fcmPorts = fcmReady.ports.isEmpty ? nil : fcmReady.ports
                announcement.file.fcmServiceAccount = fcmReady.serviceAccount
                announcement.file.fcmCAFile = URL(fileURLWithPath: parts.caFile).standardizedFileURL.path
                let beside = parts.shared == nil ? "" : " beside Apple's, told apart by the TLS server name"
                let google = fcmReady.ports["443"].map { ", Google's names on \($0)\(beside)" } ?? ""
                let names = (FCMIdentity.googleNames + (settled.listener.tls?.names ?? [])).joined(separator: ", ")
                announcement.lines.append("FCM front door on \(fcmReady.url)\(google) (\(names); senders trust \(parts.caFile))")
                if let account = fcmReady.serviceAccount {
                    announcement.lines.append("FCM service account for project \(fcmSettings?.defaultProject ?? ""): \(account)")
                }
            }
            return announcement
        }, path: readyPath)

        // Dependency order; the group stops them in reverse: the ready file goes, the listeners stop taking requests,
        // the relay's last answers come back, the recording is flushed, what follows it (webhooks, the request log)
        // drains, then the store's connections close.
        var services: [any Service] = storeClosing
        if let sharedService { services.append(sharedService) }
        if let pruner { services.append(pruner) }
        if let requestLog { services.append(requestLog) }
        services.append(webhooks)
        services.append(mock)
        if let relay { services.append(ClosingService("relay") { await relay.shutdown() }) }
        services.append(apns)
        if let fcm {
            services.append(fcm.frontDoor)
            for listener in fcm.listeners {
                services.append(ServeListener(listener, name: listener.role.rawValue) { error in
                    (error as? FCMListenerError).map {
                        ListenerStartFailure(listener: $0.role.rawValue, reason: "\($0.host):\($0.port): \($0.reason)",
                                             remedy: $0.remedy)
                    }
                })
            }
        }
        services += plane.services
        services.append(ReopenSignalService(recorder: mock.recorder))
        services.append(announce)
        let group = MockServiceGroup.make(services, signals: [.sigterm, .sigint], logger: Self.groupLogger)
        try await group.run()

        FileHandle.standardError.write(Data("mockapns: stopped after \(mock.recorder.lastSequence) request(s)\n".utf8))
        var lostAny = false
        if let lost = mock.recorder.fileStatus?.lost, lost > 0 {
            FileHandle.standardError.write(Data(
                "mockapns: \(lost) record(s) could not be written to \(settled.mock.recordPath ?? "the record file")\n".utf8))
            lostAny = true
        }
        if let lost = mock.recorder.storeStatus?.lost, lost > 0 {
            FileHandle.standardError.write(Data(
                "mockapns: \(lost) record(s) could not be written to the store \(mock.recorder.storeLabel ?? "")\n".utf8))
            lostAny = true
        }
        if let lost = fcm?.frontDoor.lostRecords, lost > 0 {
            FileHandle.standardError.write(Data(
                "mockapns: \(lost) FCM record(s) could not be written to the store \(storeReader?.label ?? "")\n".utf8))
            lostAny = true
        }
        if lostAny { throw ExitCode(3) }
    }

    /// The group's own log (services starting and stopping) only at warning: `serve` says what matters itself.
    private static var groupLogger: Logger {
        var logger = Logger(label: "mockapns.lifecycle") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }

    /// The ready file and the lines said before it, once every listener is up.
    private static func announcement(configuration: MockDeployment, server: APNsHTTP2Listener,
                                     urls: (control: String?, dashboard: String?, http1: String?),
                                     relay: APNsClientRelay?) -> (file: ReadyFile, lines: [String]) {
        var lines: [String] = []
        let mode = configuration.listener.tls != nil ? "TLS, h2 with or without ALPN" : "h2c prior knowledge"
        lines.append("listening on \(server.url) (\(mode); \(configuration.mock.environment.rawValue))")
        if let tls = configuration.listener.tls, !tls.names.isEmpty || tls.certificateAuthorityDirectory != nil,
           let ca = server.certificateAuthorityPath {
            let apple = configuration.listener.appleHosts == nil ? [] : AppleHost.names
            let names = (apple + tls.names + ServerIdentity.loopbackNames).joined(separator: ", ")
            lines.append("TLS certificate issued for \(names); senders trust \(ca)")
        }
        if configuration.listener.appleHosts != nil {
            let ports = server.applePorts.sorted { $0.key < $1.key }.map { "Apple's \($0.key) on \($0.value)" }.joined(separator: ", ")
            lines.append("serving Apple's host names: \(ports) (pushes on 443/2197, channel management on 2195/2196)")
        }
        if let relay { lines.append("relaying accepted device pushes to \(relay.upstream) (\(relay.identity))") }
        if let url = urls.control { lines.append("control plane on \(url)") }
        if let url = urls.http1 { lines.append("HTTP/1.1 APNs endpoint on \(url)") }
        if let url = urls.dashboard { lines.append("dashboard on \(url)") }
        let file = ReadyFile(apnsURL: server.url, controlURL: urls.control, http1URL: urls.http1, dashboardURL: urls.dashboard,
                             caFile: server.certificateAuthorityPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                             certsDir: server.credentials.map { URL(fileURLWithPath: $0.directory).standardizedFileURL.path },
                             pid: getpid(), version: MockAPNsVersion.current,
                             applePorts: configuration.listener.appleHosts == nil ? nil
                                 : Dictionary(uniqueKeysWithValues: server.applePorts.map { ("\($0.key)", $0.value) }))
        return (file, lines)
    }

    /// The APNs endpoint's failure to bind, with the flag that moves it.
    private static func explain(_ error: any Error, appleHosts: ListenerConfiguration.AppleHostPorts?) -> ListenerStartFailure? {
        guard let error = error as? HTTP2Error else { return nil }
        switch error {
        case .addressInUse(let host, let port):
            let flag = appleHosts.flatMap { apple in
                [(apple.httpsPort, "--apple-https-port"), (apple.channelManagementSandboxPort, "--manage-sandbox-port"),
                 (apple.channelManagementProductionPort, "--manage-production-port")].first { $0.0 == port && port != 0 }?.1
            } ?? "--port"
            return ListenerStartFailure(listener: "the APNs endpoint", reason: "\(host):\(port) is already in use",
                                        remedy: "\(flag) (0 picks a free port) or stop the other process")
        case .bindFailed(_, let port, _) where port > 0 && port < 1024:
            // A port below 1024 needs the right to bind it: Apple's 443 under --apple-hosts, most often.
            return ListenerStartFailure(
                listener: "the APNs endpoint", reason: "\(error)",
                remedy: "the port (--apple-https-port or --port; 0 picks a free one, then route \(port) to it), or give this "
                    + "binary the right to bind low ports: run as root, or `sudo setcap cap_net_bind_service=+ep \(CommandLine.arguments[0])`")
        case .bindFailed, .invalidAddress:
            return ListenerStartFailure(listener: "the APNs endpoint", reason: "\(error)",
                                        remedy: appleHosts == nil ? "--host or --port"
                                            : "--host, --port, --apple-https-port, --manage-sandbox-port or --manage-production-port")
        default:
            return nil
        }
    }

    /// The server's configuration from the flags and `MOCKAPNS_*` variables (a flag wins over its variable), with
    /// every check that needs nothing started: contradicting flags, names, ranges and levels are usage errors here,
    /// before anything listens. Relay, webhooks and the store are set up by `run()`.
    func serveConfiguration(environment env: EnvironmentOptions) throws -> (deployment: MockDeployment, fcm: FCMConfiguration?) {
        var configuration = MockDeployment()
        configuration.listener.host = host ?? env["HOST"] ?? configuration.listener.host
        configuration.listener.port = try port ?? env.int("PORT") ?? configuration.listener.port
        let useH2C = h2c || env.bool("H2C")
        if useH2C && (tls || env.bool("TLS")) { throw ValidationError("--tls and --h2c are exclusive: pick one") }
        var identity = ListenerConfiguration.TLSIdentity()
        identity.certificatePath = cert ?? env["CERT"]
        identity.privateKeyPath = key ?? env["KEY"]
        configuration.mock.clientCAPath = ca ?? env["CA"]
        // The image sets MOCKAPNS_TLS_NAMES for everyone: the variable gives way to --h2c and to a certificate of the
        // user's own; only the flags contradict them.
        let ownCertificate = identity.certificatePath != nil || identity.privateKeyPath != nil
        if useH2C || ownCertificate, !tlsNames.isEmpty || caDir != nil {
            throw ValidationError(useH2C ? "--tls-name and --ca-dir issue a TLS certificate, and --h2c serves no TLS: drop one"
                                         : "--cert/--key give a certificate of your own, and --tls-name/--ca-dir issue one: pick one way")
        }
        if !useH2C, !ownCertificate {
            let namesFromEnvironment = env["TLS_NAMES"].map { $0.split(separator: ",").map(String.init) } ?? []
            identity.names = (tlsNames + namesFromEnvironment)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .map { $0 == "@hostname" ? ProcessInfo.processInfo.hostName : $0 }
            identity.certificateAuthorityDirectory = caDir ?? env["CA_DIR"]
            if let bad = identity.names.first(where: { !ServerIdentity.isHostName($0) }) {
                throw ValidationError("--tls-name \"\(bad)\" is not a host name or an IP address (letters, digits, '-' and '.', or an IP literal)")
            }
        }
        configuration.listener.tls = useH2C ? nil : identity
        try applyAppleHosts(to: &configuration.listener, environment: env, useH2C: useH2C, ownCertificate: ownCertificate)
        let fcm = try fcmOptions.configuration(environment: env, host: configuration.listener.host,
                                               freePorts: configuration.listener.port == 0)
        configuration.mock.keyFiles = keyFiles + (env["KEY_FILE"].map { $0.split(separator: ",").map(String.init) } ?? [])
        configuration.mock.trustAnySignature = trustAnySignature || env.bool("TRUST_ANY_SIGNATURE")
        if let name = environment ?? env["ENVIRONMENT"] {
            guard let value = APNsEnvironment(rawValue: name) else {
                throw ValidationError("--environment must be development or production, got \"\(name)\"")
            }
            configuration.mock.environment = value
        }
        if let spelling = environmentKeyReason ?? env["ENVIRONMENT_KEY_REASON"] {
            guard let reason = APNsReason(rawValue: spelling),
                  reason == .badEnvironmentKeyIdInToken || reason == .badEnvironmentKeyInToken else {
                throw ValidationError("--environment-key-reason must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken")
            }
            configuration.mock.environmentKeyReason = reason
        }
        if let streams = try maxConcurrentStreams ?? env.int("MAX_CONCURRENT_STREAMS") {
            guard streams >= 1 else { throw ValidationError("--max-concurrent-streams must be at least 1") }
            configuration.mock.maxConcurrentStreams = UInt32(clamping: streams)
        }
        if let connections = try maxConnections ?? env.int("MAX_CONNECTIONS") {
            guard connections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
            configuration.listener.maxConnections = connections
        }
        if let seconds = try idleTimeout ?? env.int("IDLE_TIMEOUT") {
            guard seconds >= 0 else { throw ValidationError("--idle-timeout must be 0 (never) or a number of seconds") }
            configuration.listener.idleTimeout = seconds == 0 ? nil : .seconds(seconds)
        }
        configuration.mock.devicesPath = devices ?? env["DEVICES"]
        configuration.mock.faultsPath = faults ?? env["FAULTS"]
        configuration.mock.recordPath = record ?? env["RECORD"]
        configuration.mock.recordSync = recordSync || env.bool("RECORD_SYNC")
        let storeGiven = storeOptions.store != nil || env["STORE"] != nil
        if configuration.mock.recordSync && configuration.mock.recordPath == nil && !storeGiven {
            throw ValidationError("--record-sync needs --record FILE or --store URL")
        }
        if let limit = try memoryLimit ?? env.int("MEMORY_LIMIT") { configuration.mock.memoryLimit = limit }
        if let limit = try recordQueue ?? env.int("RECORD_QUEUE") { configuration.mock.recordQueueLimit = limit }
        if let loops = try loops ?? env.int("LOOPS") {
            guard loops >= 1 else { throw ValidationError("--loops must be at least 1") }
            configuration.listener.loops = .own(loops)
        }
        // Google's names on Apple's port are handed from the APNs listener to the FCM one on the loop that accepted
        // them, so both must run on the shared loops.
        if let fcm, FCMServeOptions.sharesPort(fcm, applePort: configuration.listener.appleHosts?.httpsPort),
           configuration.listener.loops != .shared {
            throw ValidationError("--apple-hosts and --fcm share port \(fcm.googlePort ?? 0) only on the shared event loops, and --loops gives the APNs listener loops of its own: drop --loops, or move Google's names with --fcm-https-port")
        }
        let level = logLevel ?? env["LOG_LEVEL"] ?? "info"
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        guard levels.contains(level) else { throw ValidationError("--log-level must be one of \(levels.joined(separator: ", "))") }
        var logger = Logger(label: "mockapns") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = Logger.Level(rawValue: level) ?? .info
        configuration.mock.logger = logger
        configuration.control = try control.controlConfiguration(environment: env, freePort: configuration.listener.port == 0)
        configuration.http1 = try control.http1Configuration(environment: env, beside: configuration.listener)
        return (configuration, fcm)
    }

    /// The private CA the FCM front door's certificate comes from: `--ca-dir`'s (or `--apple-hosts`' own), else the
    /// one kept in the user's data folder, so one CA covers Apple's names and Google's; never the bundled one.
    private static func fcmAuthorityDirectory(_ configuration: MockDeployment,
                                              environment env: EnvironmentOptions) throws -> String {
        try configuration.listener.tls?.certificateAuthorityDirectory ?? privateCADirectory(for: "--fcm", environment: env)
    }

    /// The CA `--apple-hosts` and `--fcm` sign with when no `--ca-dir` is given: one made once in the user's data
    /// folder, apart from the CA `mockapns certs --install` puts in the system store, so trust in Apple's and Google's
    /// names stays per process (docs/unmodified-senders.md).
    private static func privateCADirectory(for flag: String, environment env: EnvironmentOptions) throws -> String {
        guard let data = UserDataDirectory.path(environment: env.variables) else {
            throw ValidationError("\(flag) needs a CA of this machine's own and neither XDG_DATA_HOME nor HOME is set: give --ca-dir DIR")
        }
        return data + "/apple-hosts-ca"
    }

    /// `--apple-hosts` and its ports: Apple's names need TLS and a CA of this machine's own (`--ca-dir`, else the user's
    /// data folder), never the bundled one; the port options go with the flag.
    private func applyAppleHosts(to configuration: inout ListenerConfiguration, environment env: EnvironmentOptions,
                                 useH2C: Bool, ownCertificate: Bool) throws {
        let ports = [("--apple-https-port", appleHTTPSPort, "APPLE_HTTPS_PORT"),
                     ("--manage-sandbox-port", manageSandboxPort, "MANAGE_SANDBOX_PORT"),
                     ("--manage-production-port", manageProductionPort, "MANAGE_PRODUCTION_PORT")]
        guard appleHosts || env.bool("APPLE_HOSTS") else {
            if let given = ports.first(where: { $0.1 != nil }) { throw ValidationError("\(given.0) goes with --apple-hosts") }
            return
        }
        if useH2C { throw ValidationError("--apple-hosts serves TLS under Apple's names, and --h2c serves no TLS: drop one") }
        if ownCertificate {
            throw ValidationError("--apple-hosts issues the certificate for Apple's names, and --cert/--key give one of your own: drop one")
        }
        var apple = ListenerConfiguration.AppleHostPorts()
        var values: [Int] = []
        for (flag, value, variable) in ports {
            let port = try value ?? env.int(variable)
            if let port, !(0...65_535).contains(port) { throw ValidationError("\(flag) must be a port from 0 to 65535, got \(port)") }
            values.append(port ?? -1)
        }
        if values[0] >= 0 { apple.httpsPort = values[0] }
        if values[1] >= 0 { apple.channelManagementSandboxPort = values[1] }
        if values[2] >= 0 { apple.channelManagementProductionPort = values[2] }
        configuration.appleHosts = apple
        if configuration.tls?.certificateAuthorityDirectory == nil {
            configuration.tls?.certificateAuthorityDirectory = try Self.privateCADirectory(for: "--apple-hosts", environment: env)
        }
    }

}
