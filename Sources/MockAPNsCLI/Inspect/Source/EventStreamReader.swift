import AsyncHTTPClient
import Foundation

/// One server-sent event: its `event:` name (nil for the default, a record) and its `data` (lines joined by
/// newlines).
struct ServerSentEvent: Sendable, Equatable {
    var name: String?
    var data: String
}

/// Reads a server-sent event stream (`GET /api/v1/stream`) and yields each event.
enum EventStreamReader {
    /// Why the stream could not be read.
    enum Failure: Error {
        /// The connection failed or dropped.
        case transport(String)
        /// The server answered with a non-2xx status (and this body).
        case status(Int, String)
    }

    /// Every event `url` delivers, until the server ends the stream or the consumer stops reading. The answer's head
    /// must come within `timeout` seconds; the stream itself may stay quiet for as long as the mock has nothing new.
    static func events(url: String, token: String?, timeout: Double = 10) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response: HTTPClientResponse
                    do throws(ControlHTTP.Unreachable) {
                        response = try await ControlHTTP.open(url, token: token, timeout: timeout)
                    } catch {
                        throw Failure.transport(error.description)
                    }
                    guard (200..<300).contains(response.status.code) else {
                        var body = (try? await response.body.collect(upTo: 64 * 1024)) ?? .init()
                        throw Failure.status(Int(response.status.code), body.readString(length: body.readableBytes) ?? "")
                    }
                    var parser = ServerSentEventParser()
                    do {
                        for try await buffer in response.body {
                            for event in parser.take(buffer.readableBytesView) { continuation.yield(event) }
                        }
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        throw Failure.transport(ControlHTTP.describe(error, timeout: timeout))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Turns the bytes of a server-sent event stream, in pieces as they arrive, into events: `data:` lines (joined by
/// newlines) and an optional `event:` name, ended by an empty line; CRLF or LF line ends.
struct ServerSentEventParser {
    private var buffer: [UInt8] = []
    private var data: [String] = []
    private var name: String?

    /// The events `bytes` completes.
    mutating func take(_ bytes: some Collection<UInt8>) -> [ServerSentEvent] {
        buffer.append(contentsOf: bytes)
        var events: [ServerSentEvent] = []
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let text = String(decoding: buffer[start..<end], as: UTF8.self)
            start = newline + 1
            if text.isEmpty {
                if !data.isEmpty { events.append(ServerSentEvent(name: name, data: data.joined(separator: "\n"))) }
                data = []
                name = nil
            } else if text.hasPrefix("data:") {
                var value = text.dropFirst(5)
                if value.first == " " { value = value.dropFirst() }
                data.append(String(value))
            } else if text.hasPrefix("event:") {
                let value = text.dropFirst(6)
                name = String(value.first == " " ? value.dropFirst() : value)
            }
        }
        buffer.removeFirst(start)
        return events
    }
}
