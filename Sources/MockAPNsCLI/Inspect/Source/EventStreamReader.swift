import Foundation
import Synchronized

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One server-sent event: its `event:` name (nil for the default, a record) and its `data` (lines joined by
/// newlines).
struct ServerSentEvent: Sendable, Equatable {
    var name: String?
    var data: String
}

/// Reads a server-sent event stream and yields each event.
enum EventStreamReader {
    /// Why the stream could not be read.
    enum Failure: Error {
        /// The connection failed or dropped.
        case transport(String)
        /// The server answered with a non-2xx status (and this body).
        case status(Int, String)
    }

    /// Every event `request` delivers, until the server ends the stream.
    static func events(for request: URLRequest) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        var request = request
        request.timeoutInterval = 365 * 24 * 3600
        request.setValue("text/event-stream", forHTTPHeaderField: "accept")
        let (stream, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream()
        let delegate = Delegate(continuation: continuation)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: queue)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    /// Collects bytes into events. Its mutable state sits behind a `Locked`.
    private final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var buffer: [UInt8] = []
            var data: [String] = []
            var name: String?
            var status = 0
            var errorBody: [UInt8] = []
        }

        private let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
        private let state = Locked(State())

        init(continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            state.withLock { $0.status = status }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let events = state.withLock { state -> [ServerSentEvent] in
                if state.status != 0 && !(200..<300).contains(state.status) {
                    state.errorBody.append(contentsOf: data)
                    return []
                }
                state.buffer.append(contentsOf: data)
                var events: [ServerSentEvent] = []
                while let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(state.buffer[..<newline])
                    state.buffer.removeFirst(newline + 1)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    let text = String(decoding: line, as: UTF8.self)
                    if text.isEmpty {
                        if !state.data.isEmpty {
                            events.append(ServerSentEvent(name: state.name, data: state.data.joined(separator: "\n")))
                        }
                        state.data = []
                        state.name = nil
                    } else if text.hasPrefix("data:") {
                        var value = text.dropFirst(5)
                        if value.first == " " { value = value.dropFirst() }
                        state.data.append(String(value))
                    } else if text.hasPrefix("event:") {
                        let value = text.dropFirst(6)
                        state.name = String(value.first == " " ? value.dropFirst() : value)
                    }
                }
                return events
            }
            for event in events { continuation.yield(event) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (status, body) = state.withLock { ($0.status, $0.errorBody) }
            if let error {
                continuation.finish(throwing: Failure.transport(error.localizedDescription))
            } else if status != 0 && !(200..<300).contains(status) {
                continuation.finish(throwing: Failure.status(status, String(decoding: body, as: UTF8.self)))
            } else {
                continuation.finish()
            }
            session.finishTasksAndInvalidate()
        }
    }
}
