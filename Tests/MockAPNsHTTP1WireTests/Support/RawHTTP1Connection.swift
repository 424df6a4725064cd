import Foundation
import TestSupport

/// One TCP connection that writes exactly the bytes a test gives it and reads HTTP/1.1 answers back, so a test can
/// pipeline requests, keep a connection open across requests, or send bytes no HTTP client would.
final class RawHTTP1Connection {
    /// One parsed answer.
    struct Answer {
        let status: Int
        /// Header names lowercased; the last value wins.
        let headers: [String: String]
        let body: String
    }

    private let connection: LoopbackConnection
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        guard let connection = LoopbackConnection(port: port, receiveTimeout: 20) else {
            throw Failure("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        self.connection = connection
    }

    /// Writes `text` as it is.
    func send(_ text: String) throws {
        guard connection.send(Array(text.utf8)) else { throw Failure("write failed: errno \(errno)") }
    }

    /// A request in the text form `send` takes, with `content-length` for `body`.
    static func request(_ method: String, _ path: String, headers: [String] = [], body: String = "") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        text += "content-length: \(body.utf8.count)\r\n\r\n" + body
        return text
    }

    /// Reads the next answer (its body by `content-length`); nil when the server closed the connection first, with a
    /// FIN or, when it closed with our bytes still unread, a reset.
    func readAnswer() throws -> Answer? {
        while true {
            if let answer = try parse() { return answer }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = connection.receive(into: &chunk)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return nil }
            guard count > 0 else { throw Failure("read failed or timed out: errno \(errno)") }
            buffer += chunk[0..<count]
        }
    }

    /// True when the server has closed the connection (after reading what is left).
    func isClosedByServer() throws -> Bool {
        try readAnswer() == nil
    }

    private func parse() throws -> Answer? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, buffer.count - 3)).first(where: { Array(buffer[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let head = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure("bad status line in \(head)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard buffer.count >= end + 4 + length else { return nil }
        let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        buffer.removeFirst(end + 4 + length)
        return Answer(status: status, headers: headers, body: body)
    }

    /// A socket call failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
