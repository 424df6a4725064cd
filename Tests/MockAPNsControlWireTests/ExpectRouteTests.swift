import APNsModel
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// `GET /api/v1/expect`: the expectation checked on the server, in the words `mockapns expect` prints, so a kit asks
/// instead of ranking records itself.
final class ExpectRouteTests: LeakCheckedTestCase {
    func testAnExpectationIsMetOrSaysWhichRecordsCameClosest() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        harness.mock.recorder.append(.sample(token: "aa01", title: "Shipped"))
        harness.mock.recorder.append(.sample(token: "aa02", title: "Delayed"))
        harness.mock.recorder.append(.sample(token: "aa03", topic: "com.example.other", title: "Other"))

        let met = try await harness.client.send("GET", "/api/v1/expect?topic=com.example.app&where=aps.alert.title=Shipped&count=1")
        // #1 meets both; #2 the topic only; #3 neither.
        XCTAssertEqual(met.status, 200, met.text)
        let metJSON = try met.json()
        XCTAssertEqual(metJSON["met"], .bool(true))
        XCTAssertEqual(metJSON["matching"]?.integerValue, 1)
        XCTAssertEqual(metJSON["matched_seqs"], .array([.integer(1)]))
        XCTAssertEqual(metJSON["message"]?.stringValue,
                       "expect: ok — 1 matched (of 3 records in the mock's recording); wanted exactly 1 record with topic=com.example.app, aps.alert.title=Shipped.\n")

        let missed = try await harness.client.send("GET", "/api/v1/expect?token=aa02&where=aps.alert.title=Shipped")
        let json = try missed.json()
        XCTAssertEqual(json["met"], .bool(false))
        XCTAssertEqual(json["closest"]?.arrayElements?.first?["seq"]?.integerValue, 2, "the same token, the wrong title: closest")
        let message = try XCTUnwrap(json["message"]?.stringValue)
        XCTAssertTrue(message.hasPrefix("expect: FAILED — wanted at least 1 record with token=aa02, aps.alert.title=Shipped; 0 matched"), message)
        XCTAssertTrue(message.contains("Closest records:\n  #2 "), message)
        XCTAssertTrue(message.contains("missed: aps.alert.title=Shipped (found \"Delayed\")"), message)

        let none = try await harness.client.send("GET", "/api/v1/expect?token=ffff&none=true")
        XCTAssertEqual(try none.json()["met"], .bool(true))
        let since = try await harness.client.send("GET", "/api/v1/expect?since=1&where=aps.alert.title=Shipped&none=true")
        XCTAssertEqual(try since.json()["considered"]?.integerValue, 2, "since narrows the records that count")
        XCTAssertEqual(try since.json()["met"], .bool(true))

        for (query, words) in [("count=1&none=true", "only one of"), ("where=nothing", "PATH=VALUE"), ("at_least=-1", "at least 0"),
                               ("limit=3", "does not apply")] {
            let bad = try await harness.client.send("GET", "/api/v1/expect?" + query)
            XCTAssertEqual(bad.status, 400, query)
            XCTAssertTrue(bad.text.contains(words), "\(query): \(bad.text)")
        }
        await harness.stop()
    }
}
