import APNsModel
import Foundation
import PeerSupport
import PostgresSupport
import TestSupport
import XCTest

/// Device states and fault rules shared through `serve --store` (a real PostgreSQL): set through one instance's
/// control API, they apply on the others; an instance started later takes them; a change written to the database
/// without a notification is picked up by the periodic re-read. The same again with `--store-events poll`, where the
/// periodic re-read is put off for an hour, so only the outbox can have told the others.
final class StoreSharedStateTests: PostgresTestCase {
    private var directory = ""
    private let tokenX = String(repeating: "a1", count: 32)
    private let tokenY = String(repeating: "b2", count: 32)
    private let tokenZ = String(repeating: "c3", count: 32)

    override func setUp() async throws {
        directory = try makeTestDirectory("store-shared")
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: URL(fileURLWithPath: directory + "/push.json"))
    }

    /// The mode's arguments for every instance a test starts (empty: notify, with the default re-read).
    private var mode: [String] = []
    private static let pollMode = ["--store-events", "poll", "--store-resync", "3600"]

    private func curl(_ method: String, _ url: String, _ body: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["-sS", "-o", "-", "-w", "\n%{http_code}", "-X", method, url]
        if let body { arguments += ["-H", "content-type: application/json", "--data-binary", body] }
        let output = try PeerProcess.run("/usr/bin/curl", arguments, timeout: 30).stdout
        let status = Int(output.split(separator: "\n").last ?? "") ?? 0
        return (status, output.split(separator: "\n").dropLast().joined(separator: "\n"))
    }

    /// The status the mock at `url` answers a push to `token` with (the sender's first verdict).
    private func answer(_ token: String, at url: String) async throws -> String {
        let result = try await InspectCLI.run(["send", directory + "/push.json", "--token", token, "--topic", "com.example.app",
                                               "--url", url, "--json"])
        let summary = try result.json()
        if summary["accepted"]?.integerValue == 1 { return "200" }
        return summary["rejected"]?.objectMembers?.first?.key ?? "failed: \(summary.jsonText())"
    }

    /// Polls until the push to `token` at `url` is answered `expected` (up to 30 s).
    private func eventually(_ token: String, at url: String, is expected: String) async throws -> String {
        var last = ""
        for _ in 0..<150 {
            last = try await answer(token, at: url)
            if last.hasPrefix(expected) { return last }
            try await Task.sleep(for: .milliseconds(200))
        }
        return last
    }

    func testDevicesAndFaultsSetThroughOneInstanceApplyOnTheOthers() async throws {
        try await devicesAndFaultsApplyEverywhere(database: "sharedstate")
    }

    func testDevicesAndFaultsSetThroughOneInstanceApplyOnTheOthersInPollMode() async throws {
        mode = Self.pollMode
        try await devicesAndFaultsApplyEverywhere(database: "sharedstatepoll")
    }

    private func devicesAndFaultsApplyEverywhere(database name: String) async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase(name)
        let url = cluster.url(database: database)
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstAPNs = first.apnsURL
        let firstControl = try XCTUnwrap(first.controlURL)
        defer { first.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondAPNs = second.apnsURL
        let secondControl = try XCTUnwrap(second.controlURL)
        defer { second.stop() }

        // A device state set through A answers on B.
        let put = try curl("PUT", firstControl + "/api/v1/devices/\(tokenX)", #"{"state":"unregistered"}"#)
        XCTAssertEqual(put.status, 200, put.body)
        let onB = try await eventually(tokenX, at: secondAPNs, is: "410")
        XCTAssertEqual(onB, "410 Unregistered", "B did not take the device state set through A")

        // A fault rule added through A fires on B, with the same id on both.
        let added = try curl("POST", firstControl + "/api/v1/faults",
                             #"{"name":"down","match":{"token":"\#(tokenY)"},"action":{"type":"status","status":500,"reason":"InternalServerError"}}"#)
        XCTAssertEqual(added.status, 201, added.body)
        let id = try XCTUnwrap(try JSONValue.parse(Array(added.body.utf8))["id"]?.stringValue)
        let faultOnB = try await eventually(tokenY, at: secondAPNs, is: "500")
        XCTAssertEqual(faultOnB, "500 InternalServerError")
        let listed = try curl("GET", secondControl + "/api/v1/faults")
        XCTAssertTrue(listed.body.contains(#""id":"\#(id)""#), "B lists the rule under A's id: \(listed.body)")

        // Removed through B: A answers 200 again.
        let removed = try curl("DELETE", secondControl + "/api/v1/faults/\(id)")
        XCTAssertEqual(removed.status, 200, removed.body)
        let clearedOnA = try await eventually(tokenY, at: firstAPNs, is: "200")
        XCTAssertEqual(clearedOnA, "200")

        // An instance started later takes the shared state at once.
        let third = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                               readyFile: directory + "/C.json", store: .init(url: url, instance: "C"))
        let thirdControl = try XCTUnwrap(third.controlURL)
        defer { third.stop() }
        let devices = try curl("GET", thirdControl + "/api/v1/devices")
        XCTAssertTrue(devices.body.contains(tokenX), "C did not load the shared device states: \(devices.body)")

        // Written by hand without a notification: the periodic re-read brings it to B (not put off in notify mode).
        if mode.isEmpty {
            _ = try cluster.psql("INSERT INTO mockapns_devices (namespace, token, state) VALUES ('', '\(tokenZ)', '{\"state\":\"unregistered\"}')",
                                 database: database)
            let rereadOnB = try await eventually(tokenZ, at: secondAPNs, is: "410")
            XCTAssertEqual(rereadOnB, "410 Unregistered", "the periodic re-read did not pick up a change made without NOTIFY")
        }

        // Forgetting every device through C makes tokenX live again on A.
        let cleared = try curl("DELETE", thirdControl + "/api/v1/devices")
        XCTAssertEqual(cleared.status, 200, cleared.body)
        let liveOnA = try await eventually(tokenX, at: firstAPNs, is: "200")
        XCTAssertEqual(liveOnA, "200")
        for process in [third, second, first] {
            process.stop()
            _ = try await process.waitForExit(timeout: .seconds(30))
        }
    }

    /// A virtual device's changes made through one instance's control API reach the others through the store: the
    /// device taken offline on A shows offline on B, a push B accepts is stored for it, and `mockapns device --store`
    /// tells the same from the database.
    func testVirtualDeviceChangesReachEveryInstance() async throws {
        try await virtualDeviceChangesReachEveryInstance(database: "devicechanges")
    }

    func testVirtualDeviceChangesReachEveryInstanceInPollMode() async throws {
        mode = Self.pollMode
        try await virtualDeviceChangesReachEveryInstance(database: "devicechangespoll")
    }

    private func virtualDeviceChangesReachEveryInstance(database name: String) async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase(name)
        let url = cluster.url(database: database)
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstControl = try XCTUnwrap(first.controlURL)
        defer { first.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondAPNs = second.apnsURL
        let secondControl = try XCTUnwrap(second.controlURL)
        defer { second.stop() }
        let offline = try curl("PUT", firstControl + "/api/v1/devices/\(tokenZ)", #"{"online":false}"#)
        XCTAssertEqual(offline.status, 200, offline.body)
        var onB = ""
        let offlineOnB = try await Poll.until(timeout: .seconds(10)) {
            onB = try curl("GET", secondControl + "/api/v1/devices/\(tokenZ)/screen").body
            return onB.contains(#""online":false"#)
        }
        XCTAssertTrue(offlineOnB, "B never saw the device go offline: \(onB)")
        let pushed = try await answer(tokenZ, at: secondAPNs)
        XCTAssertEqual(pushed, "200")
        var stored = 0
        _ = try await Poll.until(timeout: .seconds(10)) {
            let screen = try JSONValue.parse(Array(try curl("GET", firstControl + "/api/v1/devices/\(tokenZ)/screen").body.utf8))
            stored = screen["stored"]?.arrayElements?.count ?? 0
            return stored > 0
        }
        XCTAssertEqual(stored, 1, "A reads B's push from the store and holds it for the offline device")
        let fromStore = try await InspectCLI.run(["device", tokenZ, "--store", url, "--json"])
        XCTAssertEqual(fromStore.status, 0, fromStore.stderr)
        XCTAssertEqual(try fromStore.json()["screen"]?["online"], .bool(false), fromStore.stdout)
        XCTAssertEqual(try fromStore.json()["screen"]?["stored"]?.arrayElements?.count, 1, fromStore.stdout)
        let forget = try curl("DELETE", secondControl + "/api/v1/devices/\(tokenZ)")
        XCTAssertEqual(forget.status, 200, forget.body)
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_device_changes", database: database), "0")
    }

    /// Over HTTP/1.1 a counted fault shared through the store is claimed from the store as over HTTP/2 (one answer
    /// path): two instances answering by turns fire it exactly its count between them, not its count each.
    func testACountedFaultSharedThroughTheStoreFiresItsCountOverHTTP1() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("countedfaulthttp1")
        let url = cluster.url(database: database)
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0", "--http1-port", "0"],
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        defer { first.process.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0", "--http1-port", "0"],
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        defer { second.process.stop() }
        let endpoints = [try XCTUnwrap(first.http1URL), try XCTUnwrap(second.http1URL)]
        let token = String(repeating: "e5", count: 32)
        let added = try curl("POST", try XCTUnwrap(first.controlURL) + "/api/v1/faults",
                             #"{"name":"two","match":{"token":"\#(token)"},"count":2,"action":{"type":"status","status":500,"reason":"InternalServerError"}}"#)
        XCTAssertEqual(added.status, 201, added.body)
        let id = try XCTUnwrap(try JSONValue.parse(Array(added.body.utf8))["id"]?.stringValue)
        let secondControl = try XCTUnwrap(second.controlURL)
        let onB = try await Poll.until(timeout: .seconds(10)) {
            try curl("GET", secondControl + "/api/v1/faults").body.contains(#""id":"\#(id)""#)
        }
        XCTAssertTrue(onB, "B never took the rule")

        let headers = ["authorization: bearer " + (try TestTokens.jwt()), "apns-topic: com.example.app", "apns-push-type: alert"]
        var statuses: [Int] = []
        for index in 0..<8 {
            let answer = try CurlRequest.send("POST", endpoints[index % 2] + "/3/device/" + token, headers: headers,
                                              body: #"{"aps":{"alert":"hi"}}"#)
            statuses.append(answer.status)
        }
        XCTAssertEqual(statuses.filter { $0 == 500 }.count, 2, "the rule fires twice across both instances: \(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 6, "\(statuses)")
        XCTAssertEqual(try cluster.psql("SELECT fired FROM mockapns_faults WHERE id = \(id.dropFirst())", database: database), "2")
    }

    func testACountedFaultFiresExactlyItsCountAcrossInstances() async throws {
        try await countedFaultFiresItsCount(database: "countedfault")
    }

    func testACountedFaultFiresExactlyItsCountAcrossInstancesInPollMode() async throws {
        mode = Self.pollMode
        try await countedFaultFiresItsCount(database: "countedfaultpoll")
    }

    private func countedFaultFiresItsCount(database name: String) async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase(name)
        let url = cluster.url(database: database)
        let first = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                               readyFile: directory + "/A.json", store: .init(url: url, instance: "A"))
        let firstAPNs = first.apnsURL
        let firstControl = try XCTUnwrap(first.controlURL)
        defer { first.stop() }
        let second = try await ServedMock.start(["--port", "0", "--quiet", "--control-port", "0"] + mode,
                                                readyFile: directory + "/B.json", store: .init(url: url, instance: "B"))
        let secondAPNs = second.apnsURL
        let secondControl = try XCTUnwrap(second.controlURL)
        defer { second.stop() }
        let token = String(repeating: "d4", count: 32)

        let added = try curl("POST", firstControl + "/api/v1/faults",
                             #"{"name":"three","match":{"token":"\#(token)"},"count":3,"action":{"type":"status","status":500,"reason":"InternalServerError"}}"#)
        XCTAssertEqual(added.status, 201, added.body)
        let id = try XCTUnwrap(try JSONValue.parse(Array(added.body.utf8))["id"]?.stringValue)
        let onB = try await Poll.until(timeout: .seconds(10)) {
            try curl("GET", secondControl + "/api/v1/faults").body.contains(#""id":"\#(id)""#)
        }
        XCTAssertTrue(onB, "B never took the rule")

        // Both instances at once, several streams each: the store grants each of the three firings to one push.
        let sent = try await InspectCLI.run(["send", directory + "/push.json", "--token", token, "--topic", "com.example.app",
                                             "--url", firstAPNs, "--url", secondAPNs, "--count", "40", "--concurrency", "8",
                                             "--give-up-after", "1", "--json"])
        XCTAssertNotEqual(sent.status, 2, sent.stdout + sent.stderr)
        var counts = ""
        for _ in 0..<100 {
            counts = try cluster.psql("SELECT count(*) || '/' || count(*) FILTER (WHERE status = 500) || '/' || count(DISTINCT instance) "
                                      + "FROM mockapns_records WHERE token = '\(token)'", database: database)
            if let total = Int(counts.split(separator: "/").first ?? ""), total >= 40 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let parts = counts.split(separator: "/").map(String.init)
        XCTAssertEqual(parts.count, 3, counts)
        XCTAssertGreaterThanOrEqual(Int(parts.first ?? "") ?? 0, 40, "records of the pushes: \(counts)")
        XCTAssertEqual(parts.dropFirst().first, "3", "the rule fired \(parts.dropFirst().first ?? "?") times, not 3: \(counts)")
        XCTAssertEqual(parts.last, "2", "both instances answered pushes: \(counts)")
        XCTAssertEqual(try cluster.psql("SELECT fired FROM mockapns_faults WHERE id = \(id.dropFirst())", database: database), "3")
        for process in [second, first] {
            process.stop()
            _ = try await process.waitForExit(timeout: .seconds(30))
        }
    }
}
