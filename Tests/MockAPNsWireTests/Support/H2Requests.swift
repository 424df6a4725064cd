import Foundation
import TestSupport
import XCTest

/// Drives `Tests/Peers/h2_requests.py` (python-h2): several requests on one connection, with headers
/// and bodies no polite client would send. Each exchange goes to the one running peer (``H2Peer``).
struct H2Requests {
    struct Request {
        var method = "POST"
        var path: String
        var headers: [(String, String)] = []
        var rawHeaders: [(String, [UInt8])] = []
        var body: [UInt8] = []
        var bodyRepeat: (UInt8, Int)?
    }

    struct Response {
        var status: Int?
        var headers: [[String]]
        var body: String
        var reset: Int?
        var error: String?
        var maxConcurrentStreams: Int?
        var reason: String? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["reason"] as? String
        }
    }

    struct Outcome {
        var responses: [Response]
        var goAway: [String: Any]?
    }

    /// `authority` is the host name sent as SNI and `:authority` (default localhost); `ca` the CA to verify with
    /// (default the bundled one).
    static func run(port: Int, tls: Bool = true, alpn: Bool = false, certificate: String? = nil,
                    parallel: Bool = false, burst: Bool = false, authority: String? = nil, ca: String? = nil,
                    _ requests: [Request]) throws -> Outcome {
        var input = try spec(port: port, tls: tls, alpn: alpn, certificate: certificate, parallel: parallel || burst,
                             step: false, authority: authority, ca: ca, requests)
        if burst {
            // Every request in one write: the server reads the whole flight before it answers any of it.
            var object = try JSONSerialization.jsonObject(with: input) as? [String: Any] ?? [:]
            object["burst"] = true
            input = try JSONSerialization.data(withJSONObject: object)
        }
        return try outcome(H2Peer.exchange(input, beforeEach: { _ in }))
    }

    /// Like `run`, on one connection, calling `beforeEach(i)` before request `i` goes out (e.g. to move the
    /// server's clock).
    static func runStepped(port: Int, certificate: String? = nil, authority: String? = nil, ca: String? = nil,
                           _ requests: [Request], beforeEach: (Int) -> Void) throws -> Outcome {
        let input = try spec(port: port, tls: true, alpn: false, certificate: certificate, parallel: false, step: true,
                             authority: authority, ca: ca, requests)
        return try outcome(H2Peer.exchange(input, beforeEach: beforeEach))
    }

    private static func spec(port: Int, tls: Bool, alpn: Bool, certificate: String?, parallel: Bool, step: Bool,
                             authority: String? = nil, ca: String? = nil, _ requests: [Request]) throws -> Data {
        var spec: [String: Any] = ["port": port, "tls": tls, "alpn": alpn, "ca": ca ?? RepoPaths.cert("ca.pem"),
                                   "parallel": parallel, "step": step]
        if let authority { spec["authority"] = authority }
        if let certificate {
            spec["cert"] = RepoPaths.cert("\(certificate).pem")
            spec["key"] = RepoPaths.cert("\(certificate)-key.pem")
        }
        spec["requests"] = requests.map { request -> [String: Any] in
            var headers: [Any] = request.headers.map { [$0.0, $0.1] }
            headers += request.rawHeaders.map { [$0.0, ["hex": $0.1.map { String(format: "%02x", $0) }.joined()]] as [Any] }
            var item: [String: Any] = ["method": request.method, "path": request.path, "headers": headers]
            if !request.body.isEmpty { item["body_b64"] = Data(request.body).base64EncodedString() }
            if let (byte, count) = request.bodyRepeat { item["body_repeat"] = [Int(byte), count] }
            return item
        }
        return try JSONSerialization.data(withJSONObject: spec)
    }

    static func failure(_ text: String) -> NSError {
        NSError(domain: "H2Requests", code: 1, userInfo: [NSLocalizedDescriptionKey: "h2_requests.py failed: \(text)"])
    }

    private static func outcome(_ stdout: String) throws -> Outcome {
        guard let json = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any],
              let items = json["responses"] as? [[String: Any]] else {
            throw failure(stdout)
        }
        return Outcome(
            responses: items.map {
                Response(status: $0["status"] as? Int, headers: $0["headers"] as? [[String]] ?? [], body: $0["body"] as? String ?? "",
                         reset: $0["reset"] as? Int, error: $0["error"] as? String, maxConcurrentStreams: $0["max_concurrent_streams"] as? Int)
            },
            goAway: json["goaway"] as? [String: Any])
    }
}

extension H2Requests.Request {
    /// A well-formed alert push with a token, for `TestTokens.token64`.
    static func push(jwt: String?, topic: String = "com.example.app", pushType: String = "alert",
                     body: String = #"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#, extra: [(String, String)] = []) -> Self {
        var headers: [(String, String)] = [("apns-topic", topic), ("apns-push-type", pushType)]
        if let jwt { headers.insert(("authorization", "bearer \(jwt)"), at: 0) }
        return Self(path: "/3/device/\(TestTokens.token64)", headers: headers + extra, body: Array(body.utf8))
    }
}
