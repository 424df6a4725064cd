import APNsModel
import Foundation
import MockAPNs
import MockAPNsControl
import XCTest
import TestSupport

/// The dashboard's routes over real HTTP: the embedded page and files, the search endpoint, the delivery view.
final class DashboardRoutesTests: LeakCheckedTestCase {
    func testServesThePageAndItsFilesFromTheBinaryUnder200KB() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        var total = 0
        let page = try await client.send("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(String(decoding: page.body, as: UTF8.self).contains(#"<script type="module" src="/dashboard/app.js">"#))
        total += page.body.count
        for (name, type) in [("app.js", "text/javascript"), ("render.js", "text/javascript"), ("devices.js", "text/javascript"),
                             ("app.css", "text/css")] {
            let answer = try await client.send("GET", "/dashboard/\(name)")
            XCTAssertEqual(answer.status, 200, name)
            XCTAssertEqual(answer.headers["content-type"]?.hasPrefix(type), true, name)
            XCTAssertGreaterThan(answer.body.count, 1000, name)
            total += answer.body.count
        }
        XCTAssertLessThan(total, 200 * 1024, "the dashboard's assets must stay under 200 KB")
        let missing = try await client.send("GET", "/dashboard/nope.js")
        XCTAssertEqual(missing.status, 404)
    }

    func testWithATokenThePageLoadsWithoutItButEveryAPICallNeedsIt() async throws {
        let harness = try await ControlTestHarness.start(token: "s3cret")
        addTeardownBlock { await harness.stop() }
        harness.mock.recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.app", pushType: "alert"))
        let client = harness.client
        let page = try await client.send("GET", "/")
        let script = try await client.send("GET", "/dashboard/app.js")
        let missing = try await client.send("GET", "/dashboard/nope.js")
        let postToPage = try await client.send("POST", "/")
        var refused: [String: Int] = [:]
        for path in ["/api/v1/search", "/api/v1/stream", "/api/v1/notifications/1", "/api/v1/stats", "/api/v1/devices",
                     "/api/v1/devices/ab/screen", "/metrics"] {
            refused[path] = try await client.send("GET", path).status
        }
        let withToken = try await client.send("GET", "/api/v1/search", headers: ["authorization": "Bearer s3cret"])
        let foreignPage = try await client.send("GET", "/", headers: ["origin": "http://evil.example"])
        await harness.stop()
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("token-form"), "the page has the token prompt")
        XCTAssertEqual(script.status, 200)
        XCTAssertEqual(missing.status, 401, "only the dashboard's own files are public")
        XCTAssertEqual(postToPage.status, 401)
        for (path, status) in refused { XCTAssertEqual(status, 401, path) }
        XCTAssertEqual(withToken.status, 200)
        guard case .array(let items)? = try withToken.json()["notifications"] else { return XCTFail(withToken.text) }
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(foreignPage.status, 403, "the browser guard still runs first")
    }

    func testOneRecordPastTheMemoryRingIsFoundInTheRecordFile() async throws {
        let path = try makeTestDirectory("dashboard-seq", file: "rec.jsonl")
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        configuration.memoryLimit = 2
        configuration.recordPath = path
        let mock = try Mock(configuration: configuration)
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "127.0.0.1", port: 0))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        for index in 1...5 { mock.recorder.append(RecordFixtures.make(token: "aa1\(index)", topic: "com.example.app", pushType: "alert")) }
        let client = HTTPTestClient(base: "http://127.0.0.1:\(port)")
        let old = try await client.send("GET", "/api/v1/notifications/2")
        let delivery = try await client.send("GET", "/api/v1/notifications/2/delivery")
        let never = try await client.send("GET", "/api/v1/notifications/9")
        await control.stop()
        mock.shutdown()
        XCTAssertEqual(old.status, 200, old.text)
        XCTAssertEqual(try old.json()["seq"]?.integerValue, 2)
        XCTAssertEqual(try old.json()["device_token"]?.stringValue, "aa12")
        XCTAssertEqual(delivery.status, 200, delivery.text)
        XCTAssertEqual(never.status, 404)
    }

    func testNoDashboardLeavesTheRootUnrouted() async throws {
        let mock = try TestMock.anySignature()
        addTeardownBlock { mock.shutdown() }
        let control = ControlServer(mock: mock, configuration: ControlConfiguration(host: "127.0.0.1", port: 0).withDashboard(false))
        addTeardownBlock { await control.stop() }
        let port = try await control.start()
        let answer = try await HTTPTestClient(base: "http://127.0.0.1:\(port)").send("GET", "/")
        await control.stop()
        mock.shutdown()
        XCTAssertEqual(answer.status, 404)
    }

    func testSearchAppliesTheGrammarNewestFirstAndRejectsBadQueries() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let recorder = harness.mock.recorder
        recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.app", pushType: "alert"))
        recorder.append(RecordFixtures.make(token: "bb22", topic: "com.example.app", pushType: "background", status: 400, reason: "BadDeviceToken"))
        recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.other", pushType: "alert", status: 410, reason: "Unregistered"))
        let client = harness.client
        let cases: [(String, [Int64])] = [
            ("", [3, 2, 1]),
            ("-status:200", [3, 2]),
            ("status:4xx%20token:aa", [3]),
            ("type:background", [2]),
            ("topic:com.example.other", [3]),
        ]
        for (query, expected) in cases {
            let answer = try await client.send("GET", "/api/v1/search?q=\(query)")
            XCTAssertEqual(answer.status, 200, query)
            guard case .array(let items)? = try answer.json()["notifications"] else { return XCTFail(query) }
            XCTAssertEqual(items.compactMap { $0["seq"]?.integerValue }, expected, query)
        }
        let paged = try await client.send("GET", "/api/v1/search?limit=1&before=3")
        XCTAssertEqual(try paged.json()["next_before"]?.integerValue, 2)
        for bad in ["q=bogus:1", "q=status:ok", "limit=0", "before=x"] {
            let answer = try await client.send("GET", "/api/v1/search?\(bad)")
            XCTAssertEqual(answer.status, 400, bad)
            XCTAssertNotNil(try answer.json()["error"]?.stringValue, bad)
        }
    }

    func testDeliveryAnswersTheSimulatorForEachAppState() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        harness.mock.recorder.append(RecordFixtures.make(token: "aa11", topic: "com.example.app", pushType: "alert"))
        let client = harness.client
        let foreground = try await client.send("GET", "/api/v1/notifications/1/delivery")
        XCTAssertEqual(foreground.status, 200)
        XCTAssertEqual(try foreground.json().value(at: ["profile", "state"])?.stringValue, "foreground")
        XCTAssertEqual(try foreground.json().value(at: ["simulation", "presentation", "kind"])?.stringValue, "banner")
        let denied = try await client.send("GET", "/api/v1/notifications/1/delivery?state=background&authorization=denied")
        XCTAssertEqual(try denied.json().value(at: ["simulation", "presentation", "kind"])?.stringValue, "none")
        let badState = try await client.send("GET", "/api/v1/notifications/1/delivery?state=asleep")
        XCTAssertEqual(badState.status, 400)
        let missing = try await client.send("GET", "/api/v1/notifications/9/delivery")
        XCTAssertEqual(missing.status, 404)
    }
}
