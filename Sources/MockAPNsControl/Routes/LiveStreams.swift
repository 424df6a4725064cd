import MockAPNs
import Synchronization

/// The live record feeds handed to `/api/v1/stream` clients, kept so that stopping the server can end
/// them (an open event stream would otherwise hold the graceful shutdown until its grace period ran out).
final class LiveStreams: Sendable {
    private struct Feed: Sendable {
        let sink: AsyncStream<RecordedRequest>.Continuation
        let forwarder: Task<Void, Never>
    }

    private let recorder: Recorder
    private let feeds = Mutex<(next: Int, open: [Int: Feed], closed: Bool)>((0, [:], false))

    init(recorder: Recorder) {
        self.recorder = recorder
    }

    /// A stream of every record from now on; it ends when the client goes away or ``closeAll()`` runs.
    func open() -> AsyncStream<RecordedRequest> {
        let (stream, sink) = AsyncStream<RecordedRequest>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let source = recorder.subscribe()
        let forwarder = Task {
            for await record in source {
                if case .terminated = sink.yield(record) { break }
            }
            sink.finish()
        }
        let id = feeds.withLock { state -> Int? in
            if state.closed { return nil }
            state.next += 1
            state.open[state.next] = Feed(sink: sink, forwarder: forwarder)
            return state.next
        }
        guard let id else {
            forwarder.cancel()
            sink.finish()
            return stream
        }
        sink.onTermination = { [weak self] _ in
            forwarder.cancel()
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
            feed.forwarder.cancel()
            feed.sink.finish()
        }
    }
}
