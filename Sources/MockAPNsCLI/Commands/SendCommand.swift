import APNsClient
import APNsModel
import ArgumentParser
import Foundation

/// `mockapns send PAYLOAD --token HEX`: sends a push (or `--count` of them) with the APNsClient library, by
/// default to the local mock (`https://127.0.0.1:2197`, bundled CA and test key TESTKEY001 of TESTTEAM01).
///
/// Exit status: 0 when every push was accepted, 1 when any was rejected or failed or the run gave up on an
/// unreachable endpoint (`--give-up-after`), 2 on a usage error.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a push with the APNsClient library (default: to the local mock).",
        discussion: """
            Defaults: --url \(SendSettings.defaultURL), the bundled CA and the bundled key TESTKEY001 (team TESTTEAM01) \
            when the URL is on this machine. Exits 0 when all pushes were accepted, 1 when any was rejected or failed \
            or the endpoint stayed unreachable for --give-up-after seconds, 2 on a usage error.
            """
    )

    @Argument(help: "The payload: a .json body or a Simulator .apns file.")
    var payload: String

    @Option(help: "Device token, hex.")
    var token: String?

    @Option(name: .customLong("token-file"),
            help: "A file of device tokens, hex, one per line: push n goes to the n-th (in turn), instead of --token.")
    var tokenFile: String?

    @Flag(name: .customLong("payload-template"),
          help: "Each push gets its own body: every {{n}} in the payload is replaced by the push's number (from 0).")
    var payloadTemplate = false

    @OptionGroup var headers: PushHeaderOptions

    @Option(name: .customLong("key-file"), help: "Token auth: TEAMID:KEYID:PATH of a .p8 key.")
    var keyFile: String?

    @Option(help: "Certificate auth: client certificate, PEM (with --cert-key).")
    var cert: String?

    @Option(name: .customLong("cert-key"), help: "Certificate auth: the certificate's private key, PEM.")
    var certKey: String?

    @Option(help: "CA certificate(s) to trust, PEM (default: the bundled CA for a local URL, else the system store).")
    var ca: String?

    @Option(help: ArgumentHelp(
        "Server URL: https://host:port, or http://host:port for h2c (default \(SendSettings.defaultURL)).",
        discussion: "Repeat it to spread the run over several servers (several mocks sharing one --store): each URL gets "
            + "its own --connections and an equal share of the workers, as a sender behind a load balancer would."))
    var url: [String] = []

    @Option(help: "How many pushes to send.")
    var count = 1

    @Option(help: "How many pushes in flight at once.")
    var concurrency = 100

    @Option(help: "HTTP/2 connections in the pool.")
    var connections = 1

    @Option(help: "Event-loop threads for the connections (default 1: the sending tasks then run on that loop, no thread hop per push).")
    var loops: Int?

    @Option(help: "Seconds one attempt may take.")
    var timeout = 30

    @Option(name: .customLong("give-up-after"),
            help: "Seconds the endpoint may stay unreachable before the run stops taking pushes, prints its counts and exits 1.")
    var giveUpAfter: Double = 10

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func run() async throws {
        let settings: SendSettings
        var clients: [APNsClient] = []
        do {
            settings = try SendSettings(self)
            for configuration in settings.configurations { clients.append(try APNsClient(configuration: configuration)) }
        } catch {
            for client in clients { await client.shutdown() }
            throw CommandFailure.exit(reporting: error)
        }
        let tally = SendTally()
        let start = ContinuousClock.now
        let progress = SendProgress.wanted(count: settings.count) ? startProgress(tally: tally, total: settings.count, start: start) : nil
        let giveUp = SendGiveUp(limit: settings.giveUpAfter)
        let workers = Task { [clients] in await Self.sendAll(settings, clients: clients, tally: tally, giveUp: giveUp) }
        let watcher = Task { [clients] in await giveUp.watch(clients, workers: workers) }
        await workers.value
        watcher.cancel()
        let elapsed = Self.seconds(ContinuousClock.now - start)
        progress?.cancel()
        _ = await progress?.value
        if progress != nil { SendProgress.draw(done: tally.snapshot.done, total: settings.count, elapsed: elapsed, final: true) }
        let gaveUp = giveUp.reason
        // Always shut down before exiting: exit() with event loops still using OpenSSL can crash in its clean-up.
        // After giving up this is immediate, unless a connection attempt to a host that drops packets is pending
        // (then up to the 10 s connect timeout).
        for client in clients { await client.shutdown() }

        let summary = SendSummary(count: settings.count, counts: tally.snapshot, seconds: elapsed, gaveUp: gaveUp,
                                  giveUpAfter: giveUpAfter)
        print(json ? summary.json.jsonText() : summary.text)
        if !summary.allAccepted { throw ExitCode(1) }
    }

    /// Sends `settings.count` pushes from `settings.concurrency` workers sharing one counter; worker w sends through
    /// `clients[w % clients.count]`, so several URLs each get an equal share. Once `giveUp` has cancelled the run, no
    /// worker takes another push.
    private static func sendAll(_ settings: SendSettings, clients: [APNsClient], tally: SendTally, giveUp: SendGiveUp) async {
        let plan = settings.plan
        let perWorker = settings.count / settings.concurrency
        let extra = settings.count % settings.concurrency
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<settings.concurrency {
                let share = perWorker + (worker < extra ? 1 : 0)
                let client = clients[worker % clients.count]
                // With one event loop, the workers run on it: no thread hop per push (see `APNsClient.taskExecutor`).
                group.addTask(executorPreference: client.taskExecutor) {
                    // Worker w sends pushes w, w + concurrency, w + 2 × concurrency, …: each number once.
                    for turn in 0..<share {
                        if Task.isCancelled { break }
                        let index = worker + turn * settings.concurrency
                        do throws(APNsClientError) {
                            tally.record(.success(try await client.send(plan.notification(index), deviceToken: plan.token(index))))
                        } catch {
                            // A push cut short by giving up failed for the reason the run gave up.
                            if error == .cancelled, let reason = giveUp.reason {
                                tally.record(.failure(.unreachable(reason)))
                            } else {
                                tally.record(.failure(error))
                            }
                        }
                    }
                }
            }
        }
    }

    private func startProgress(tally: SendTally, total: Int, start: ContinuousClock.Instant) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                SendProgress.draw(done: tally.snapshot.done, total: total, elapsed: Self.seconds(ContinuousClock.now - start))
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
