import Logging
import MockAPNs
import ServiceLifecycle

/// ``RequestLog`` as a service: logs from its start until the recording closes (the ``Mock`` stops before it), then
/// prints what is left, so every request is logged or counted before `serve` exits.
struct RequestLogService: Service, CustomStringConvertible {
    let recorder: Recorder
    let logger: Logger
    var description: String { "request log" }

    func run() async throws {
        guard let task = RequestLog.start(recorder: recorder, logger: logger) else {
            try? await gracefulShutdown()
            return
        }
        try? await gracefulShutdown()
        task.cancel()
        await task.value
    }
}
