import APNsModel
import Foundation
import PeerSupport
import PostgresSupport
import XCTest

/// With `serve --store`, any instance's control API and dashboard read the shared store: a push answered by A is
/// found by B's search, shown by B's detail route under its store-wide id, counted by B's stats, and arrives on B's
/// live stream; clearing through B clears the namespace.
final class StoreControlPlaneTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("store-control")
    }

    func testAnInstancesControlAPIReadsEveryInstancesRecordsFromTheStore() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase("controlplane"))
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--no-control"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstURL = first.apnsURL
        defer { first.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"],
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondURL = second.apnsURL
        let controlURL = second.controlURL
        defer { second.stop() }
        let control = try XCTUnwrap(controlURL, "B has no control plane")

        // B's live stream, opened before any push: it must carry A's push as well as B's.
        let stream = try PeerProcess.start("/usr/bin/curl", ["-sN", "--max-time", "60", control + "/api/v1/stream"])
        defer { stream.terminate() }
        // The stream's opening comment is written once its start (the store's newest id) is fixed.
        let opened = try await Poll.until { stream.currentStdout.contains(": mockapns live stream") }
        XCTAssertTrue(opened, "the stream did not open: \(stream.currentStdout)")

        let payload = directory + "/push.json"
        try Data(#"{"aps":{"alert":{"title":"Shipped","body":"Order 42"}}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let tokenA = String(repeating: "a1", count: 32), tokenB = String(repeating: "b2", count: 32)
        for (token, target) in [(tokenA, firstURL), (tokenB, secondURL)] {
            let sent = try await InspectCLI.run(["send", payload, "--token", token, "--topic", "com.example.app", "--url", target])
            XCTAssertEqual(sent.status, 0, sent.stdout + sent.stderr)
        }

        // Each instance writes its batch within 100 ms; B's search sees both once both are committed.
        var found: [JSONValue] = []
        for _ in 0..<200 where found.count < 2 {
            found = try ControlJSON.get(control + "/api/v1/search?q=shipped").arrayOf("notifications")
            if found.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        }
        XCTAssertEqual(Set(found.compactMap { $0["device_token"]?.stringValue }), [tokenA, tokenB])
        let onlyA = try ControlJSON.get(control + "/api/v1/search?q=token:a1a1%20title:ship").arrayOf("notifications")
        XCTAssertEqual(onlyA.compactMap { $0["device_token"]?.stringValue }, [tokenA])
        let id = try XCTUnwrap(onlyA.first?["seq"]?.integerValue)

        let detail = try ControlJSON.get(control + "/api/v1/notifications/\(id)")
        XCTAssertEqual(detail["device_token"]?.stringValue, tokenA, "B shows A's record under its store-wide id")
        XCTAssertEqual(detail["instance"]?.stringValue, "A", "the record names the instance that answered it")
        XCTAssertEqual(Set(found.compactMap { $0["instance"]?.stringValue }), ["A", "B"])
        let delivery = try ControlJSON.get(control + "/api/v1/notifications/\(id)/delivery")
        XCTAssertEqual(delivery["seq"]?.integerValue, id)
        XCTAssertEqual(try ControlJSON.get(control + "/api/v1/stats")["total"]?.integerValue, 2)
        let listed = try ControlJSON.get(control + "/api/v1/notifications?topic=com.example.app").arrayOf("notifications")
        XCTAssertEqual(listed.count, 2)

        var streamed = ""
        for _ in 0..<200 where !(streamed.contains(tokenA) && streamed.contains(tokenB)) {
            streamed = stream.currentStdout
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertTrue(streamed.contains(tokenA) && streamed.contains(tokenB), "B's live stream missed a push: \(streamed)")
        XCTAssertTrue(streamed.contains("id: \(id)\n"), "the stream numbers records by store-wide id: \(streamed)")

        let cleared = try CurlRequest.send("DELETE", control + "/api/v1/notifications")
        XCTAssertEqual(try JSONValue.parse(Array(cleared.body.utf8))["cleared"]?.integerValue, 2, cleared.body)
        XCTAssertEqual(try ControlJSON.get(control + "/api/v1/search?q=").arrayOf("notifications").count, 0)
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records", database: "controlplane"), "0")
    }
}
