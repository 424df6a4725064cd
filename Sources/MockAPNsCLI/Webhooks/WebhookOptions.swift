import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import MockAPNs
import MockAPNsWebhooks

/// The webhook flags of `mockapns serve`: where recorded pushes are POSTed, which ones, and how they are signed.
/// Targets come only from these flags (and `MOCKAPNS_WEBHOOK_SECRET`), never from the control API.
struct WebhookOptions: ParsableArguments {
    @Option(name: .customLong("webhook"), help: ArgumentHelp(
        "POST every recorded push (the API's record JSON) to this http(s) URL, in record order, at least once (repeatable).",
        valueName: "url"))
    var webhooks: [String] = []

    @Option(name: .customLong("webhook-match"), help: ArgumentHelp(
        "Only records matching this search (the dashboard's grammar, e.g. \"topic:com.example.app -status:200\"); once for every --webhook, or once per --webhook in order.",
        valueName: "query"))
    var matches: [String] = []

    @Option(name: .customLong("webhook-secret"), help: ArgumentHelp(
        "Sign each body: X-MockAPNs-Signature: sha256=HMAC-SHA256(secret, \"<X-MockAPNs-Timestamp>.<body>\") (or MOCKAPNS_WEBHOOK_SECRET, kept out of `ps`).",
        valueName: "secret"))
    var secret: String?

    @Option(name: .customLong("webhook-timeout"), help: ArgumentHelp("Seconds one delivery attempt may take (default 5).", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("webhook-queue"), help: ArgumentHelp(
        "Records that may wait per webhook; past that the oldest are dropped and counted (default 10000).", valueName: "count"))
    var queueLimit: Int?

    @Option(name: .customLong("webhook-attempts"), help: ArgumentHelp(
        "Attempts per record (retries after connection errors, timeouts, 5xx and 429, with back-off) before it counts as failed (default 8).",
        valueName: "count"))
    var attempts: Int?

    /// The targets, or a usage error naming the flag (exit 2).
    func targets(environment env: EnvironmentOptions) throws -> [WebhookTarget] {
        guard !webhooks.isEmpty else {
            if !matches.isEmpty || secret != nil || timeout != nil || queueLimit != nil || attempts != nil {
                throw ValidationError("--webhook-match, --webhook-secret, --webhook-timeout, --webhook-queue and --webhook-attempts go with --webhook URL")
            }
            return []
        }
        guard matches.count <= 1 || matches.count == webhooks.count else {
            throw ValidationError("--webhook-match: give it once (for every --webhook) or once per --webhook (\(webhooks.count)), not \(matches.count) times")
        }
        let seconds = try timeout ?? env["WEBHOOK_TIMEOUT"].map { text in
            guard let value = Double(text) else { throw ValidationError("MOCKAPNS_WEBHOOK_TIMEOUT must be a number of seconds, got \"\(text)\"") }
            return value
        } ?? 5
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--webhook-timeout must be more than 0 seconds") }
        let queue = try queueLimit ?? env.int("WEBHOOK_QUEUE") ?? 10_000
        guard queue >= 1 else { throw ValidationError("--webhook-queue must be at least 1") }
        let tries = try attempts ?? env.int("WEBHOOK_ATTEMPTS") ?? 8
        guard tries >= 1 else { throw ValidationError("--webhook-attempts must be at least 1") }
        let key = (secret ?? env["WEBHOOK_SECRET"]).map { Array($0.utf8) }
        return try webhooks.enumerated().map { index, url in
            let text = matches.count == 1 ? matches[0] : (matches.isEmpty ? "" : matches[index])
            let query: SearchQuery
            do {
                query = try SearchQuery(parsing: text)
            } catch {
                throw ValidationError("--webhook-match \"\(text)\": \(error)")
            }
            do {
                return try WebhookTarget(url: url, match: query, secret: key, timeout: .milliseconds(Int64(seconds * 1000)),
                                         queueLimit: queue, maxAttempts: tries)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }
}

/// The running webhooks of one `serve`: one dispatcher per target over one shared HTTP client.
final class RunningWebhooks: Sendable {
    let dispatchers: [WebhookDispatcher]
    private let client: HTTPClient?

    /// Dispatchers for `targets` reading `recorder`, counting into `statistics` (one per target, in order).
    init(targets: [WebhookTarget], statistics: [WebhookStatistics], recorder: Recorder, logger: Logger) {
        guard !targets.isEmpty else {
            dispatchers = []
            client = nil
            return
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow   // a receiver answers; it does not send the server elsewhere
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.client = client
        dispatchers = zip(targets, statistics).map { target, counters in
            WebhookDispatcher(target: target, statistics: counters, recorder: recorder, client: client, logger: logger)
        }
    }

    /// Starts every dispatcher.
    private func start() {
        for dispatcher in dispatchers { dispatcher.start() }
    }

    /// Lets each dispatcher post what was recorded (up to `grace`), then closes the client.
    private func finish(grace: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            for dispatcher in dispatchers { group.addTask { await dispatcher.finish(grace: grace) } }
        }
        try? await client?.shutdown()
    }
}

extension RunningWebhooks: Service {
    /// Posts every record from its start; on shutdown (after the ``Mock``, whose recording is then closed) it
    /// posts what was recorded for up to 5 s more, unless receivers stay down, then closes its HTTP client.
    func run() async throws {
        start()
        try? await gracefulShutdown()
        await finish(grace: .seconds(5))
    }
}
