import Foundation
import HTTP2
import HTTP2TestSupport
import XCTest

/// The server reuses a connection's previous header strings when a request repeats them (`RepeatedFieldCache`): a
/// handler must still see every request exactly as sent, whatever it shares with the one before, and the sharing
/// must actually happen for a repeated field.
final class RepeatedFieldTests: ClientServerTestCase {
    private func fields(_ pairs: [(String, String)]) -> [HTTPHeaderField] {
        pairs.map { HTTPHeaderField(name: $0.0, value: $0.1) }
    }

    private static func sameStorage(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.baseAddress == y.baseAddress } }
    }

    /// A value too long to be stored inline in a `String`, so sharing shows as one storage.
    private static let long = String(repeating: "t", count: 40)

    func testEachRequestArrivesAsSentWhateverItRepeats() async throws {
        let (server, handler) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        let big = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var bigChanged = big
        bigChanged[bigChanged.count - 1] ^= 0xFF
        let sent: [HTTP2ClientRequest] = [
            HTTP2ClientRequest(method: "POST", path: "/p1", headers: fields([("a", Self.long), ("b", "two"), ("c", "3")]),
                               body: Array("hello world".utf8)),
            HTTP2ClientRequest(method: "POST", path: "/p1", headers: fields([("a", Self.long), ("b", "two"), ("c", "3")]),
                               body: Array("hello world".utf8)),                                  // a full repeat
            HTTP2ClientRequest(method: "POST", path: "/q1", headers: fields([("a", "1"), ("b", "owt"), ("c", "3")]),
                               body: Array("hello world".utf8)),                                  // same lengths, other bytes
            HTTP2ClientRequest(method: "POST", path: "/p1", headers: fields([("a", "1"), ("b", "XX"), ("c", "3")]),
                               body: Array("hello world!!".utf8)),                                // one value, longer body
            HTTP2ClientRequest(method: "PUT", path: "/p2", headers: fields([("a", "1"), ("b", "XX")]),
                               body: Array("hello".utf8)),                                        // fewer, shorter prefix
            HTTP2ClientRequest(method: "PUT", path: "/p2", headers: fields([("a", "1"), ("b", "XX"), ("c", "3"), ("d", "4")])),
            HTTP2ClientRequest(method: "POST", path: "/p2", headers: fields([("b", "XX"), ("a", "1")]),
                               body: Array("jello world".utf8)),                                  // reordered, first byte
            HTTP2ClientRequest(method: "POST", path: "/p3", headers: fields([("a", "1")]), body: big),   // many DATA frames
            HTTP2ClientRequest(method: "POST", path: "/p3", headers: fields([("a", "1")]), body: big),   // repeated
            HTTP2ClientRequest(method: "POST", path: "/p3", headers: fields([("a", "1")]), body: bigChanged),
            HTTP2ClientRequest(method: "POST", path: "/p3", headers: fields([("a", "1")]), body: Array(big[0..<50_000])),
            HTTP2ClientRequest(method: "POST", path: "/p4", headers: fields([("a", "1")]), body: big + big),  // over the cap
            HTTP2ClientRequest(method: "POST", path: "/p4", headers: fields([("a", "1")]), body: big + big),
        ]
        let cap = HTTP2ServerConfiguration().maxBodyBytes
        for request in sent {
            let response = try await connection.send(request)
            XCTAssertEqual(response.status, 200)
            XCTAssertTrue(response.body == Array((request.body ?? []).prefix(cap)), "echo of \(request.path)")
        }
        await connection.close()

        let received = handler.requests
        XCTAssertEqual(received.count, sent.count)
        for (index, (got, want)) in zip(received, sent).enumerated() {
            XCTAssertEqual(got.method, want.method, "request \(index)")
            XCTAssertEqual(got.path, want.path, "request \(index)")
            // The client adds no regular headers of its own beyond these (content-length is not sent by it).
            XCTAssertEqual(got.headers.filter { $0.name != "content-length" }, want.headers, "request \(index)")
            let body = want.body ?? []
            XCTAssertTrue(got.body == Array(body.prefix(cap)), "request \(index): body of \(got.body.count) bytes differs")
            XCTAssertEqual(got.bodyOverflowed, body.count > cap, "request \(index)")
        }
        // A repeated field shares the earlier request's string (the point of the cache).
        let a = received[0..<2].map { $0.headers.first { $0.name == "a" }?.value ?? "" }
        XCTAssertTrue(Self.sameStorage(a[0], a[1]))
    }

    func testInterleavedStreamsEachGetTheirOwnFields() async throws {
        let (server, handler) = try await startServer()
        let connection = try await connect(server, tls: trustTestCA)
        // Bodies over one DATA frame, alike but for a byte in the middle, sent at once: their frames interleave.
        let base = [UInt8](repeating: 0x61, count: 40_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<40 {
                var body = base
                body[20_000] = UInt8(n)
                let request = HTTP2ClientRequest(
                    method: "POST", path: "/echo", headers: fields([("x-n", String(n)), ("x-same", "s")]), body: n % 3 == 0 ? base : body)
                group.addTask {
                    let response = try await connection.send(request)
                    XCTAssertEqual(response.status, 200)
                    XCTAssertTrue(response.body == request.body, "echo differs")
                }
            }
            try await group.waitForAll()
        }
        await connection.close()
        let received = handler.requests
        XCTAssertEqual(received.count, 40)
        for request in received {
            let n = Int(request.header("x-n") ?? "") ?? -1
            var expected = base
            if n % 3 != 0 { expected[20_000] = UInt8(n) }
            XCTAssertTrue(request.body == expected, "request x-n: \(n): body differs")
            XCTAssertEqual(request.header("x-same"), "s")
        }
    }
}
