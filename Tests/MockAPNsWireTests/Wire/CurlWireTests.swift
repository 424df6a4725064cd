import APNsModel
import Foundation
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// curl, a client nobody here wrote, against the live mock over TLS.
final class CurlWireTests: LeakCheckedTestCase {
    func curl(_ server: TestServer, path: String, headers: [String], body: String?, extra: [String] = []) throws
        -> (status: Int, body: String, headers: String) {
        let dir = try makeTestDirectory("curl")
        var args = ["-sS", "--http2", "--cacert", RepoPaths.cert("ca.pem"), "-o", dir + "/body", "-D", dir + "/headers",
                    "-w", "%{http_code}", "-X", "POST"]
        for h in headers { args += ["-H", h] }
        if let body { args += ["--data-binary", body] }
        args += extra
        args.append("https://127.0.0.1:\(server.port)\(path)")
        let out = try PeerProcess.run("curl", args)
        XCTAssertEqual(out.status, 0, out.stderr)
        return (Int(out.stdout) ?? -1,
                (try? String(contentsOfFile: dir + "/body", encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: dir + "/headers", encoding: .utf8)) ?? "")
    }

    func testTokenAuthenticatedPushIsAcceptedAndRecorded() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        let result = try curl(server, path: "/3/device/\(TestTokens.token64)",
                              headers: ["authorization: bearer \(jwt)", "apns-topic: com.example.app", "apns-push-type: alert",
                                        "apns-id: 123e4567-e89b-12d3-a456-4266554400a0"],
                              body: #"{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}"#)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.body, "", "a 200 carries no body")
        XCTAssertTrue(result.headers.contains("apns-id: 123e4567-e89b-12d3-a456-4266554400a0"), result.headers)
        XCTAssertTrue(result.headers.contains("apns-unique-id: "), result.headers)
        let records = server.recorder.records()
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.auth.teamID, "TESTTEAM01")
        XCTAssertEqual(records.first?.payload?.value(at: ["aps", "alert", "title"]), .string("Shipped"))
    }

    func testErrorsCarryAPNsReasonJSON() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let jwt = try TestTokens.jwt()
        let missing = try curl(server, path: "/3/device/\(TestTokens.token64)", headers: ["apns-topic: com.example.app"],
                               body: #"{"aps":{}}"#)
        XCTAssertEqual(missing.status, 403)
        XCTAssertEqual(missing.body, #"{"reason":"MissingProviderToken"}"#)
        XCTAssertTrue(missing.headers.lowercased().contains("content-type: application/json"))
        let badPath = try curl(server, path: "/2/device/aa", headers: ["authorization: bearer \(jwt)"], body: "{}")
        XCTAssertEqual(badPath.status, 404)
        XCTAssertEqual(badPath.body, #"{"reason":"BadPath"}"#)
        XCTAssertEqual(server.recorder.records().map(\.response.status), [403, 404])
    }

    func testUnregisteredDeviceGets410WithTimestamp() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        try server.mock.devices.set(TestTokens.token64, .unregistered(timestamp: 1_700_000_000_000))
        let result = try curl(server, path: "/3/device/\(TestTokens.token64)",
                              headers: ["authorization: bearer \(try TestTokens.jwt())", "apns-topic: com.example.app"],
                              body: #"{"aps":{"alert":"hi"}}"#)
        XCTAssertEqual(result.status, 410)
        XCTAssertEqual(result.body, #"{"reason":"Unregistered","timestamp":1700000000000}"#)
    }

    func testClientCertificateAuthentication() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        let ok = try curl(server, path: "/3/device/\(TestTokens.token64)", headers: ["apns-topic: com.example.app.voip", "apns-push-type: voip"],
                          body: #"{"aps":{},"call":"x"}"#,
                          extra: ["--cert", RepoPaths.cert("client-app.pem"), "--key", RepoPaths.cert("client-app-key.pem")])
        XCTAssertEqual(ok.status, 200, ok.body)
        let multiTopicNoTopic = try curl(server, path: "/3/device/\(TestTokens.token64)", headers: [],
                                         body: #"{"aps":{"alert":"x"}}"#,
                                         extra: ["--cert", RepoPaths.cert("client-app.pem"), "--key", RepoPaths.cert("client-app-key.pem")])
        XCTAssertEqual(multiTopicNoTopic.body, #"{"reason":"MissingTopic"}"#)
        let untrusted = try curl(server, path: "/3/device/\(TestTokens.token64)", headers: ["apns-topic: com.example.app"],
                                 body: #"{"aps":{"alert":"x"}}"#,
                                 extra: ["--cert", RepoPaths.cert("client-untrusted.pem"), "--key", RepoPaths.cert("client-untrusted-key.pem")])
        XCTAssertEqual(untrusted.status, 403)
        XCTAssertEqual(untrusted.body, #"{"reason":"BadCertificate"}"#)
        XCTAssertEqual(server.recorder.records().first?.auth.kind, "certificate")
    }
}

extension CurlWireTests {
    func testRecordsCarryLintFindings() async throws {
        let server = try await TestServer.start()
        addTeardownBlock { await server.stop() }
        // APNs accepts a background push that carries an alert, but the device will not treat it as silent.
        let result = try curl(server, path: "/3/device/\(TestTokens.token64)",
                              headers: ["authorization: bearer \(try TestTokens.jwt())", "apns-topic: com.example.app",
                                        "apns-push-type: background", "apns-priority: 5"],
                              body: #"{"aps":{"content-available":1,"alert":"hi"}}"#)
        XCTAssertEqual(result.status, 200)
        let record = try XCTUnwrap(server.recorder.records().first)
        XCTAssertTrue(record.lint.contains { $0.severity == .error || $0.severity == .warning }, "\(record.lint)")
        XCTAssertTrue(record.lint.contains { $0.path.hasPrefix("aps") }, "\(record.lint)")
    }
}
