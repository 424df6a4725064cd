import APNsClient
import APNsModel
import Foundation
import TestSupport
import XCTest

/// The client's pool and TLS against a server nobody here wrote: nghttpd (nghttp2's reference server).
final class NghttpdTransportTests: LeakCheckedTestCase {
    func testPoolOverTLSAgainstNghttpd() async throws {
        let docroot = URL(fileURLWithPath: try makeTestDirectory("nghttpd"))
        let served = docroot.appendingPathComponent("3/device")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try Data("ok".utf8).write(to: served.appendingPathComponent("abcd"))

        let port = try PeerProcess.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.locate("nghttpd"))
        process.arguments = ["-d", docroot.path, "--address=127.0.0.1", String(port), RepoPaths.cert("server-key.pem"), RepoPaths.cert("server.pem")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)   // nghttpd ignores SIGTERM
            process.waitUntilExit()
        }

        let client = try APNsClient(configuration: APNsClientConfiguration(
            environment: .custom(url: "https://127.0.0.1:\(port)"), authentication: try ClientTestServer.testKey(),
            trustRootsPEM: try RepoPaths.text("ca.pem"), connections: 3,
            retryPolicy: APNsRetryPolicy(maxAttempts: 30, baseDelay: .milliseconds(50), maxDelay: .milliseconds(100))))
        addTeardownBlock { await client.shutdown() }
        // The first push also waits (with retries on connection failure) for nghttpd to listen.
        let push = APNsNotification.alert(bundleID: "com.example.app", body: "hi")
        _ = try await client.send(push, deviceToken: "abcd")
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<300 {
                group.addTask {
                    do throws(APNsClientError) {
                        _ = try await client.send(push, deviceToken: index.isMultiple(of: 2) ? "abcd" : "missing")
                        return true
                    } catch {
                        guard case let .rejected(status, reason, _, _) = error, status == 404, reason == .unknown("") else {
                            throw error
                        }
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        XCTAssertEqual(results.filter { $0 }.count, 150, "served file → 200")
        XCTAssertEqual(results.filter { !$0 }.count, 150, "missing file → 404")
        // The pool opens its other slots one after the other while pushes use the connections already open.
        let deadline = ContinuousClock.now + .seconds(30)
        while client.openConnections < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(client.openConnections, 3)
    }

    private static func locate(_ name: String) throws -> String {
        for dir in ["/usr/sbin", "/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw NSError(domain: "Nghttpd", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed; run `make deps`"])
    }
}
