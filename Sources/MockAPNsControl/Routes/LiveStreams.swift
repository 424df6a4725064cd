import MockAPNs
import Synchronized

/// The live record feeds handed to `/api/v1/stream` clients, kept so that stopping the server can end
/// them (an open event stream would otherwise hold the graceful shutdown until its grace period ran out).
///
/// Each feed also carries a heartbeat every ``heartbeatInterval``: written as an SSE comment, it keeps
/// idle connections alive through proxies and lets the server notice clients that went away.
final class LiveStreams: Sendable {
    /// What a feed delivers.
    enum Event: Sendable {
        /// A new record.
        case record(RecordedRequest)
        /// Time to write a keep-alive comment.
        case heartbeat
    }

    private struct Feed: Sendable {
        let sink: AsyncStream<Event>.Continuation
        let tasks: [Task<Void, Never>]
    }

    private let recorder: Recorder
    private let heartbeatInterval: Duration
    private let feeds = Locked<(next: Int, open: [Int: Feed], closed: Bool)>((0, [:], false))

    /// Follows `recorder`, with a heartbeat every `heartbeatInterval`.
    init(recorder: Recorder, heartbeatInterval: Duration = .seconds(15)) {
        self.recorder = recorder
        self.heartbeatInterval = heartbeatInterval
    }

    /// Every record from now on, plus heartbeats; it ends when the client goes away or ``closeAll()`` runs.
    func open() -> AsyncStream<Event> {
        let (stream, sink) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let source = recorder.subscribe()
        let forwarder = Task {
            for await record in source {
                if case .terminated = sink.yield(.record(record)) { break }
            }
            sink.finish()
        }
        let interval = heartbeatInterval
        let heart = Task {
            while (try? await Task.sleep(for: interval)) != nil {
                if case .terminated = sink.yield(.heartbeat) { break }
            }
        }
        let tasks = [forwarder, heart]
        let id = feeds.withLock { state -> Int? in
            if state.closed { return nil }
            state.next += 1
            state.open[state.next] = Feed(sink: sink, tasks: tasks)
            return state.next
        }
        guard let id else {
            tasks.forEach { $0.cancel() }
            sink.finish()
            return stream
        }
        sink.onTermination = { [weak self] _ in
            tasks.forEach { $0.cancel() }
            _ = self?.feeds.withLock { $0.open.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every open feed and refuses new ones.
    func closeAll() {
        let open = feeds.withLock { state -> [Feed] in
            state.closed = true
            defer { state.open.removeAll() }
            return Array(state.open.values)
        }
        for feed in open {
            feed.tasks.forEach { $0.cancel() }
            feed.sink.finish()
        }
    }
}
