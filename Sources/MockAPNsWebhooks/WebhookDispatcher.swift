import Support
import AsyncHTTPClient
import Foundation
import Logging
import MockAPNsRecording
import NIOCore
import NIOHTTP1

/// Posts the records matching one ``WebhookTarget`` to it, in record order, at least once, from a task of its own.
///
/// It follows the recorder by position (``RecordFollower``), so the APNs path does no work for it: a push costs the
/// same with or without webhooks. Its queue is the records between its position and the newest; when more than
/// `queueLimit` wait (a receiver slower than the traffic, or down), the oldest are passed over and counted as
/// dropped. A record is retried (``WebhookBackoff``, `Retry-After` honoured) after a connection error, a timeout, a
/// 5xx or a 429, until `maxAttempts`; the next record waits meanwhile, so order holds. Any other answer but 2xx
/// fails the record at once. Each change between delivering and failing is logged once.
public final class WebhookDispatcher: Sendable {
    /// The counters `/metrics` and `/api/v1/stats` show.
    public let statistics: WebhookStatistics
    private let target: WebhookTarget
    private let recorder: Recorder
    private let client: HTTPClient
    private let logger: Logger
    private let backoff: WebhookBackoff
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A dispatcher for `target`, counting into `statistics`, posting through `client`; nothing runs until
    /// ``start()``.
    public init(target: WebhookTarget, statistics: WebhookStatistics, recorder: Recorder, client: HTTPClient,
                logger: Logger, backoff: WebhookBackoff = WebhookBackoff()) {
        self.target = target
        self.statistics = statistics
        self.recorder = recorder
        self.client = client
        self.logger = logger
        self.backoff = backoff
    }

    /// Starts posting the records stored from now on.
    public func start() {
        let start = recorder.lastSequence
        task.withLock { running in
            guard running == nil else { return }
            running = Task { [self] in await run(after: start) }
        }
    }

    /// Waits up to `grace` for the records already stored to be posted (the recorder has shut down, so the
    /// follower ends once it has read them), then stops whatever is still retrying.
    public func finish(grace: Duration) async {
        guard let running = task.withLock({ $0 }) else { return }
        let deadline = Task {
            try? await Task.sleep(for: grace)
            running.cancel()
        }
        await running.value
        deadline.cancel()
    }

    private func run(after start: UInt64) async {
        var follower = RecordFollower(recorder: recorder, after: start)
        follower.keepNewest = target.queueLimit
        var encoder = RecordLineEncoder()
        var failing = false
        var handled = start   // the last record delivered, failed, dropped or not matched
        defer {
            // Stopped (shutdown's grace ran out): what was stored and not handled is dropped, and counted.
            let last = recorder.lastSequence
            if last > handled { statistics.countDropped(Int(clamping: last - handled)) }
        }
        while !Task.isCancelled {
            guard let batch = await follower.next(timeout: .seconds(1)) else { return }
            if let skipped = batch.skipped {
                statistics.countDropped(Self.count(skipped))
                noteDropped(skipped)
                handled = max(handled, skipped.upperBound)
            }
            if let elided = batch.elided {
                statistics.countDropped(Self.count(elided))
                noteDropped(elided)
                handled = max(handled, elided.upperBound)
                logger.warning("webhook receiver is behind; dropped the oldest waiting records",
                               metadata: ["webhook": "\(statistics.index)", "dropped": "\(Self.count(elided))"])
            }
            if batch.records.isEmpty { handled = max(handled, batch.position) }
            for record in batch.records {
                if Task.isCancelled { return }
                if target.match.terms.isEmpty || target.match.matches(record.record) {
                    let line = encoder.line(for: record)
                    let delivered = await deliver(Array(line.dropLast()), seq: record.seq)
                    if delivered == failing {   // a change of state: said once
                        failing = !delivered
                        if delivered {
                            logger.notice("webhook delivers again", metadata: ["webhook": "\(statistics.index)", "url": "\(target.url)"])
                        }
                    }
                } else {
                    statistics.note(.notMatched, seq: record.seq)
                }
                handled = record.seq
            }
        }
    }

    /// Marks the newest records of a dropped range (at most as many as the statistics keep).
    private func noteDropped(_ range: ClosedRange<UInt64>) {
        let first = range.upperBound - min(range.upperBound - range.lowerBound, 9_999)
        for seq in first...range.upperBound { statistics.note(.dropped, seq: seq) }
    }

    private static func count(_ range: ClosedRange<UInt64>) -> Int {
        Int(clamping: range.upperBound - range.lowerBound + 1)
    }

    /// Posts one record's body until delivered or given up on; whether it was delivered.
    private func deliver(_ body: [UInt8], seq: UInt64) async -> Bool {
        let delivery = UUID().uuidString.lowercased()
        var attempt = 0
        while true {
            attempt += 1
            statistics.note(.sending(attempt: attempt), seq: seq)
            let outcome = await post(body, delivery: delivery)
            switch outcome {
            case .delivered:
                statistics.countDelivered()
                statistics.note(.delivered(attempts: attempt), seq: seq)
                return true
            case .refused(let status):
                statistics.countFailed()
                statistics.note(.failed("the receiver answered \(status)"), seq: seq)
                logger.warning("webhook receiver refused a record; not retried",
                               metadata: ["webhook": "\(statistics.index)", "seq": "\(seq)", "status": "\(status)"])
                return false
            case .retry(let wait, let cause):
                if attempt >= target.maxAttempts || Task.isCancelled {
                    statistics.countFailed()
                    statistics.note(.failed("\(attempt) attempt(s): \(cause)"), seq: seq)
                    logger.warning("webhook gave up on a record",
                                   metadata: ["webhook": "\(statistics.index)", "seq": "\(seq)", "attempts": "\(attempt)",
                                              "cause": "\(cause)"])
                    return false
                }
                statistics.countRetried()
                if attempt == 1 {
                    logger.warning("webhook delivery failed; retrying with back-off",
                                   metadata: ["webhook": "\(statistics.index)", "url": "\(target.url)", "cause": "\(cause)"])
                }
                do {
                    try await Task.sleep(for: wait ?? backoff.delay(afterAttempt: attempt))
                } catch {
                    statistics.countFailed()
                    statistics.note(.failed("stopped while waiting to retry"), seq: seq)
                    return false
                }
            }
        }
    }

    private enum Outcome {
        case delivered
        case refused(status: UInt)
        case retry(after: Duration?, cause: String)
    }

    /// One attempt, through the client's future-based `execute`: the whole answer (bounded by its size) arrives in
    /// one future, one hop back to this task per request.
    private func post(_ body: [UInt8], delivery: String) async -> Outcome {
        let timestamp = Int64(Date().timeIntervalSince1970)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "user-agent", value: "mockapns/\(MockAPNsVersion.current)")
        headers.add(name: WebhookSignature.deliveryHeader, value: delivery)
        headers.add(name: WebhookSignature.timestampHeader, value: String(timestamp))
        if let secret = target.secret {
            headers.add(name: WebhookSignature.signatureHeader, value: WebhookSignature.value(secret: secret, timestamp: timestamp, body: body))
        }
        if let basic = target.basicAuthorization { headers.add(name: "authorization", value: basic) }
        let nanos = target.timeout.components.seconds * 1_000_000_000 + target.timeout.components.attoseconds / 1_000_000_000
        do {
            let request = try HTTPClient.Request(url: target.url, method: .POST, headers: headers, body: .bytes(body))
            // A receiver's answer is read up to 64 KB (more fails the attempt): it never grows the mock's memory.
            let accumulator = ResponseAccumulator(request: request, maxBodySize: 64 * 1024)
            let response = try await client.execute(request: request, delegate: accumulator,
                                                    deadline: .now() + .nanoseconds(nanos)).futureResult.get()
            switch response.status.code {
            case 200..<300:
                return .delivered
            case 429, 500..<600:
                return .retry(after: WebhookBackoff.retryAfter(response.headers.first(name: "retry-after")),
                              cause: "answered \(response.status.code)")
            default:
                return .refused(status: response.status.code)
            }
        } catch {
            return .retry(after: nil, cause: "\(error)")
        }
    }
}
