import Logging
import MockAPNs

/// `serve`'s one line per answered request, at `info`: `POST /3/device/00fc…f0 → 400 BadDeviceToken, 412 µs`.
///
/// The lines come from the recorder's live stream on a task of their own, so formatting and writing to stderr
/// never run on an event-loop thread; the level is checked once, when `serve` starts: above `info` (or with
/// `--quiet`) nothing subscribes and a request costs nothing extra.
enum RequestLog {
    /// Starts logging every request `recorder` records, unless `logger` would drop `info` lines. The returned
    /// task ends once the recorder has shut down and every line is written.
    static func start(recorder: Recorder, logger: Logger) -> Task<Void, Never>? {
        guard logger.logLevel <= .info else { return nil }
        let records = recorder.subscribe()
        return Task.detached {
            for await record in records {
                logger.info("\(line(for: record))")
            }
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
