import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// The command line's requests to a control plane (`list`, `show`, `tail`, `expect`, `stats`, `device`, `health`),
/// through AsyncHTTPClient: the binary's one HTTP/1.1 client, which webhooks use too (pushes go out through
/// APNsClient: `send`, the relay).
enum ControlHTTP {
    /// Largest answer read whole (a page of records); a stream is read piece by piece and has no limit.
    static let maxAnswerBytes = 64 * 1024 * 1024

    /// What the transport reported when no answer came (refused, reset, timed out), for a sentence after "because".
    struct Unreachable: Error, CustomStringConvertible {
        var description: String
    }

    /// A GET request for `url` with the control token, if any, and `accept`.
    static func request(_ url: String, token: String?, accept: String = "application/json") -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "accept", value: accept)
        if let token { request.headers.add(name: "authorization", value: "Bearer \(token)") }
        return request
    }

    /// GETs `url` within `timeout` seconds: the status and the whole body.
    static func get(_ url: String, token: String?, timeout: Double) async throws(Unreachable) -> (status: Int, body: [UInt8]) {
        try await send(request(url, token: token), timeout: timeout)
    }

    /// POSTs to `url` (no body) within `timeout` seconds: the status and the whole body.
    static func post(_ url: String, token: String?, timeout: Double) async throws(Unreachable) -> (status: Int, body: [UInt8]) {
        var post = request(url, token: token)
        post.method = .POST
        return try await send(post, timeout: timeout)
    }

    /// Sends `request` within `timeout` seconds and reads its whole answer.
    private static func send(_ request: HTTPClientRequest, timeout: Double) async throws(Unreachable) -> (status: Int, body: [UInt8]) {
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            var body = try await response.body.collect(upTo: maxAnswerBytes)
            return (Int(response.status.code), body.readBytes(length: body.readableBytes) ?? [])
        } catch {
            throw Unreachable(description: describe(error, timeout: timeout))
        }
    }

    /// The head of a streaming GET (server-sent events): the response, whose body the caller reads as it arrives.
    static func open(_ url: String, token: String?, timeout: Double) async throws(Unreachable) -> HTTPClientResponse {
        do {
            return try await HTTPClient.shared.execute(request(url, token: token, accept: "text/event-stream"),
                                                       timeout: .milliseconds(Int64(timeout * 1000)))
        } catch {
            throw Unreachable(description: describe(error, timeout: timeout))
        }
    }

    /// A transport error as a reason a person reads: "connection refused", "no answer within 5 s".
    static func describe(_ error: any Error, timeout: Double) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout:
                return "no answer within \(timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)) s"
            case .remoteConnectionClosed:
                return "the connection was closed before the answer"
            default:
                return "\(error)"
            }
        }
        if let error = error as? NIOConnectionError, let cause = error.connectionErrors.first?.error {
            return "\(cause)"
        }
        return "\(error)"
    }
}
