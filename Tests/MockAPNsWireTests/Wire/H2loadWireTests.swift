import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// h2load (nghttp2's load generator): authenticated pushes (20 000 in `make test`, 200 000 under `make soak`), zero
/// failures, and exactly one JSON line per request in the record file.
final class H2loadWireTests: LeakCheckedTestCase {
    func testEveryH2loadRequestIsRecordedOnce() async throws {
        let dir = try makeTestDirectory("h2load")
        let recordPath = dir + "/rec.jsonl"
        let payloadPath = dir + "/payload.json"
        try Data(#"{"aps":{"alert":{"title":"Order shipped","body":"Your parcel is on its way"},"badge":1,"sound":"default"},"orderId":"42"}"#.utf8)
            .write(to: URL(fileURLWithPath: payloadPath))
        let server = try await TestServer.start { $0.mock.recordPath = recordPath; $0.mock.memoryLimit = 1_000 }
        addTeardownBlock { await server.stop() }
        let total = LoadSize.requests(standard: 20_000, soak: 200_000)
        let out = try PeerProcess.run("h2load", [
            "-n", "\(total)", "-c", "4", "-m", "100", "-d", payloadPath,
            "-H", "authorization: bearer \(try TestTokens.jwt())", "-H", "apns-topic: com.example.app",
            "-H", "apns-push-type: alert", "-H", "apns-priority: 10",
            "https://127.0.0.1:\(server.port)/3/device/\(TestTokens.token64)",
        ], timeout: 900)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.contains("requests: \(total) total, \(total) started, \(total) done, \(total) succeeded, 0 failed, 0 errored"),
                      out.stdout)
        XCTAssertTrue(out.stdout.contains("status codes: \(total) 2xx"), out.stdout)
        await server.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: recordPath))
        let lines = data.split(separator: UInt8(ascii: "\n"))
        XCTAssertEqual(lines.count, total, "exactly one record per request")
        let last = try RecordedRequest(jsonLine: Array(lines.last!))
        XCTAssertEqual(last.seq, UInt64(total))
        XCTAssertEqual(last.response.status, 200)
    }
}
