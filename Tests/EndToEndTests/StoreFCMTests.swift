import Foundation
import JSON
import PeerSupport
import PostgresSupport
import XCTest

/// `serve --fcm --store`: the FCM records go to the shared store beside the pushes they became. A message answered
/// by instance A is listed by B's control API under its store-wide id, with A named; `list`, `show` and `expect
/// --fcm --store URL` read it with no mock running; it outlives A; and clearing through B clears the namespace.
final class StoreFCMTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("store-fcm")
    }

    /// `serve --fcm` as `instance` on the store at `url`, on free ports, with a data folder and CA of its own.
    private func start(_ instance: String, url: String) async throws -> ServedMock {
        try await ServedMock.start(["--port", "0", "--control-port", "0", "--fcm", "--fcm-port", "0", "--fcm-https-port", "0",
                                    "--ca-dir", directory + "/ca-" + instance, "--quiet"],
                                   readyFile: directory + "/\(instance).json", store: .init(url: url, instance: instance),
                                   environment: ["XDG_DATA_HOME": directory + "/data-" + instance])
    }

    func testFCMRecordsAreSharedThroughTheStoreAndOutliveTheInstanceThatAnsweredThem() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let url = cluster.url(database: try cluster.createDatabase("storefcm"))
        let first = try await start("A", url: url)
        let second = try await start("B", url: url)
        defer { second.stop() }
        let control = try XCTUnwrap(second.controlURL)

        let (token, name) = try FCMCurl(directory: directory).sendNotification(ready: first.ready, control: try XCTUnwrap(first.controlURL),
                                                                                title: "Stored")
        // A's own control API reads its record at once (its writer is flushed before a read); B's once A wrote it.
        let own = try ControlJSON.get(try XCTUnwrap(first.controlURL) + "/api/v1/fcm/messages").arrayOf("messages")
        XCTAssertEqual(own.compactMap { $0["name"]?.stringValue }, [name])
        var listed: [JSONValue] = []
        for _ in 0..<100 where listed.isEmpty {
            listed = try ControlJSON.get(control + "/api/v1/fcm/messages?token=" + token).arrayOf("messages")
            if listed.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        let record = try XCTUnwrap(listed.first, "B does not list A's FCM record")
        XCTAssertEqual(record["instance"]?.stringValue, "A")
        XCTAssertEqual(record["name"]?.stringValue, name)
        let seq = try XCTUnwrap(record["seq"]?.integerValue)
        let messageID = String(name.split(separator: "/").last ?? "")
        let byID = try ControlJSON.get(control + "/api/v1/fcm/messages/" + messageID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        XCTAssertEqual(byID["seq"]?.integerValue, seq, "B finds it by its message id, under the store-wide id")
        let met = try ControlJSON.get(control + "/api/v1/fcm/expect?token=\(token)&count=1")
        XCTAssertEqual(met["met"]?.boolValue, true, met.jsonText())
        let apnsID = try XCTUnwrap(record["apns_ids"]?.arrayElements?.first?.stringValue)
        let push = try ControlJSON.get(control + "/api/v1/notifications/" + apnsID)
        XCTAssertEqual(push.value(at: ["fcm", "message_name"])?.stringValue, name, "the push names its message in the store too")

        first.stop()
        _ = try await first.waitForExit(timeout: .seconds(30))
        let fromStore = try await InspectCLI.run(["list", "--fcm", "--store", url, "--token", token, "--json"])
        XCTAssertEqual(fromStore.status, 0, fromStore.stderr)
        XCTAssertEqual(try JSONValue.parse(fromStore.stdout)["messages"]?.arrayElements?.compactMap { $0["name"]?.stringValue }, [name],
                       fromStore.stdout)
        let shown = try await InspectCLI.run(["show", "--fcm", name, "--store", url])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("Stored") && shown.stdout.contains("APNs push #"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("banner"), "what the phone does with it: \(shown.stdout)")
        let expected = try await InspectCLI.run(["expect", "--fcm", "--store", url, "--token", token, "--count", "1"])
        XCTAssertEqual(expected.status, 0, expected.stdout + expected.stderr)
        let missed = try await InspectCLI.run(["expect", "--fcm", "--store", url, "--token", token, "--status", "404"])
        XCTAssertEqual(missed.status, 1, missed.stdout)
        XCTAssertTrue(missed.stdout.contains("missed: status=404 (found 200 "), missed.stdout)
        let unknown = try await InspectCLI.run(["show", "--fcm", "0:404", "--store", url])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("no FCM record"), unknown.stderr)

        let cleared = try CurlRequest.send("DELETE", control + "/api/v1/fcm/messages")
        XCTAssertEqual(cleared.status, 200, cleared.body)
        XCTAssertEqual(try JSONValue.parse(Array(cleared.body.utf8))["cleared"]?.integerValue, 1)
        let empty = try await InspectCLI.run(["list", "--fcm", "--store", url, "--json"])
        XCTAssertEqual(try JSONValue.parse(empty.stdout)["messages"]?.arrayElements?.count, 0, empty.stdout)
    }

    func testFCMRecordsTheStoreStillRefusesWhenTheMockStopsAreCountedAndTheExitStatusIs3() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("storefcmlost")
        let served = try await start("L", url: cluster.url(database: database))
        // The table gone from under the writer: every batch fails on it, and the sender is still answered.
        _ = try cluster.psql("ALTER TABLE mockapns_fcm_records RENAME TO fcm_records_away", database: database)
        let (_, name) = try FCMCurl(directory: directory).sendNotification(ready: served.ready, control: try XCTUnwrap(served.controlURL),
                                                                            title: "Held")
        XCTAssertTrue(name.hasPrefix("projects/mockapns-test/messages/"), name)
        served.stop()
        let exit = try await served.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(exit?.status, 3, "a record was lost: \(exit?.stderr ?? "")")
        let stderr = exit?.stderr ?? ""
        XCTAssertTrue(stderr.contains("cannot write FCM records to"), stderr)
        XCTAssertTrue(stderr.contains("mockapns: 1 FCM record(s) could not be written to the store"), stderr)
    }
}
