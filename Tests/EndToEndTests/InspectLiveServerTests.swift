import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import PeerSupport
import XCTest

/// The inspection commands against a live control plane (`--server`, `--ready-file`, `tail` over SSE).
final class InspectLiveServerTests: LeakCheckedTestCase {
    private func withControlPlane(token: String? = nil, _ body: (Mock, String) async throws -> Void) async throws {
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        for record in InspectRecording.standard { mock.recorder.append(record) }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0, controlToken: token))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        try await body(mock, "http://127.0.0.1:\(port)")
    }

    func testListShowStatsAndExpectAgainstAServer() async throws {
        try await withControlPlane { _, url in
            let list = try await InspectCLI.run(["list", "--server", url, "--reason", "BadDeviceToken", "--json"])
            XCTAssertEqual(list.status, 0, list.stderr)
            guard case .array(let items)? = try list.json()["notifications"] else { return XCTFail(list.stdout) }
            XCTAssertEqual(items.compactMap { $0["seq"]?.integerValue }, [2])

            let show = try await InspectCLI.run(["show", "00000000-0000-4000-8000-000000000004", "--server", url])
            XCTAssertEqual(show.status, 0, show.stderr)
            XCTAssertTrue(show.stdout.hasPrefix("Notification #4"), show.stdout)

            let missing = try await InspectCLI.run(["show", "77", "--server", url])
            XCTAssertEqual(missing.status, 2)
            XCTAssertTrue(missing.stderr.contains("'77'"), missing.stderr)

            let stats = try await InspectCLI.run(["stats", "--server", url, "--json"])
            XCTAssertEqual(try stats.json()["total"]?.integerValue, 4)

            let expect = try await InspectCLI.run(["expect", "--server", url, "--where", "aps.alert.title=Never", "--timeout", "0.3"])
            XCTAssertEqual(expect.status, 1)
            XCTAssertTrue(expect.stdout.contains("expect: FAILED"), expect.stdout)
        }
    }

    func testReadyFileAndControlToken() async throws {
        let readyFile = try makeTestDirectory("ready", file: "ready.json")
        try await withControlPlane(token: "t0ken") { _, url in
            try Data(#"{"control_url":"\#(url)"}"#.utf8).write(to: URL(fileURLWithPath: readyFile))
            let refused = try await InspectCLI.run(["list", "--ready-file", readyFile])
            XCTAssertEqual(refused.status, 2)
            XCTAssertTrue(refused.stderr.contains("answered 401"), refused.stderr)
            let allowed = try await InspectCLI.run(["list", "--ready-file", readyFile, "--control-token", "t0ken"])
            XCTAssertEqual(allowed.status, 0, allowed.stderr)
            XCTAssertEqual(allowed.stdout.split(separator: "\n").count, 5, allowed.stdout)
        }
    }

    func testExpectWaitsForARecordThatArrivesLater() async throws {
        try await withControlPlane { mock, url in
            let expect = try InspectFollowProcess(["expect", "--server", url, "--where", "aps.alert.title=Late", "--timeout", "20"])
            defer { expect.stop() }
            try await Task.sleep(for: .milliseconds(300))
            mock.recorder.append(InspectRecording.record(seq: 0, title: "Late"))
            let result = try await expect.waitForExit()
            XCTAssertEqual(result?.status, 0, result?.stdout ?? "still running")
        }
    }

    func testTailFollowsTheLiveStream() async throws {
        try await withControlPlane { mock, url in
            let tail = try InspectFollowProcess(["tail", "--server", url, "--json", "--topic", "com.example.app"])
            defer { tail.stop() }
            // The stream has no backlog without --since: push until the subscription shows one.
            var output = try await tail.waitUntilFollowing(marker: "Live", attempts: 50) { attempt in
                mock.recorder.append(InspectRecording.record(seq: 0, title: "Live \(attempt)"))
            }
            let first = try JSONValue.parse(Array(try XCTUnwrap(output.split(separator: "\n").first).utf8))
            XCTAssertGreaterThan(first["seq"]?.integerValue ?? 0, 4)
            mock.recorder.append(InspectRecording.record(seq: 0, topic: "com.example.other", title: "Filtered"))
            mock.recorder.append(InspectRecording.record(seq: 0, title: "After"))
            output = try await tail.waitForLines(1) { $0.contains("After") }
            XCTAssertFalse(output.contains("Filtered"), output)
        }
    }

    func testTailEndsCleanlyWhenTheServerStops() async throws {
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(port: 0))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let tail = try InspectFollowProcess(["tail", "--server", "http://127.0.0.1:\(port)", "--json"])
        defer { tail.stop() }
        // Stopping before tail has subscribed would test a refused connection instead: probe until it prints one.
        try await tail.waitUntilFollowing(marker: "Probe") { attempt in
            mock.recorder.append(InspectRecording.record(seq: 0, title: "Probe \(attempt)"))
        }
        await control.stop()
        mock.shutdown()
        let result = try await tail.waitForExit()
        XCTAssertEqual(result?.status, 0, result?.stderr ?? "tail still running")
    }
}
