import Logging
import MockAPNs

/// `serve`'s one line per answered request, at `info`: `POST /3/device/00fc…f0 → 400 BadDeviceToken, 412 µs`.
///
/// A task of its own polls the recorder a few times a second, so formatting and writing to stderr never run on an
/// event-loop thread and a request costs the server nothing extra. A log is for a person watching, so it prints at
/// most ``linesPerSecond`` lines a second; past that it says once a second how many requests it did not show (the
/// recorder, `mockapns tail` and the `--record` file have every one). Above `info` (or with `--quiet`) it does not
/// run at all.
enum RequestLog {
    /// The most request lines printed in one second.
    static let linesPerSecond = 100
    /// How often the recorder is polled.
    static let pollInterval: Duration = .milliseconds(100)

    /// Starts logging the requests `recorder` records from now on, unless `logger` would drop `info` lines.
    /// Cancelling the returned task prints what is left (within the rate) and ends it.
    static func start(recorder: Recorder, logger: Logger) -> Task<Void, Never>? {
        guard logger.logLevel <= .info else { return nil }
        let start = recorder.lastSequence
        return Task.detached {
            var log = Follower(seen: start)
            var tick = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                log.poll(recorder, logger: logger)
                tick += 1
                if tick % 10 == 0 { log.endSecond(logger: logger) }
            }
            log.poll(recorder, logger: logger)
            log.endSecond(logger: logger)
        }
    }

    /// What the log has shown so far, within the current second.
    struct Follower {
        /// The last record number accounted for (shown or counted as not shown).
        var seen: UInt64
        /// Lines printed in the current second.
        var printed = 0
        /// Requests in the current second that were not printed.
        var skipped: UInt64 = 0

        /// Prints the records after `seen`, as many as the second's budget allows, and counts the rest.
        mutating func poll(_ recorder: Recorder, logger: Logger) {
            let last = recorder.lastSequence
            guard last > seen else { return }
            let records = recorder.records(after: seen, limit: RequestLog.linesPerSecond - printed)
            for record in records { logger.info("\(RequestLog.line(for: record))") }
            printed += records.count
            skipped += (last - seen) - UInt64(records.count)
            seen = last
        }

        /// Closes the current second: says how many requests were not shown, if any.
        mutating func endSecond(logger: Logger) {
            if skipped > 0 {
                logger.info("""
                    … and \(skipped) more request(s) not shown (at most \(RequestLog.linesPerSecond) lines a second; \
                    `mockapns tail` or --record show every one, --quiet silences this log)
                    """)
            }
            printed = 0
            skipped = 0
        }
    }

    /// `METHOD PATH → STATUS REASON, N µs`; status 0 (nothing was sent, e.g. a stalled or dropped request)
    /// reads "no answer".
    static func line(for record: RecordedRequest) -> String {
        let status = record.response.status == 0 ? "no answer" : String(record.response.status)
        let reason = record.response.reason.map { " " + $0 } ?? ""
        return "\(record.method) \(record.path) → \(status)\(reason), \(record.durationMicros) µs"
    }
}
