import APNsModel
import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// `/api/v1/devices` and `/api/v1/faults` change the mock's real registry and fault plan.
final class DeviceAndFaultRoutesTests: LeakCheckedTestCase {
    func testPutListAndDeleteADeviceState() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let put = try await client.send("PUT", "/api/v1/devices/abcd1234", body: #"{"state":"unregistered","timestamp":1795442400000}"#)
        XCTAssertEqual(put.status, 200, put.text)
        XCTAssertEqual(harness.mock.devices.all()["abcd1234"], .unregistered(timestamp: 1_795_442_400_000))

        let list = try await client.send("GET", "/api/v1/devices")
        XCTAssertEqual(try list.json().value(at: ["devices", "abcd1234", "state"])?.stringValue, "unregistered")

        let delete = try await client.send("DELETE", "/api/v1/devices/abcd1234")
        let again = try await client.send("DELETE", "/api/v1/devices/abcd1234")
        await harness.stop()
        XCTAssertEqual(delete.status, 200)
        XCTAssertNil(harness.mock.devices.all()["abcd1234"])
        XCTAssertEqual(again.status, 404)
        XCTAssertNotNil(try again.json()["error"]?.stringValue)
    }

    func testAVirtualDeviceIsChangedThroughPutAndChangesAndItsScreenIsServed() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let put = try await client.send("PUT", "/api/v1/devices/ab12", body: #"{"online":false,"app_state":"background","at":1800000000000}"#)
        XCTAssertEqual(put.status, 200, put.text)
        XCTAssertEqual(try put.json()["changes"]?.arrayElements?.count, 2)
        XCTAssertNil(try put.json()["device"], "no state was set")
        XCTAssertTrue(harness.mock.devices.all().isEmpty)
        let tap = try await client.send("POST", "/api/v1/devices/ab12/changes", body: #"{"change":"online","at":1800000060000}"#)
        XCTAssertEqual(tap.status, 201, tap.text)

        let before = try await client.send("GET", "/api/v1/devices/AB12/screen?at=1800000030000")
        XCTAssertEqual(try before.json()["online"], .bool(false))
        XCTAssertEqual(try before.json()["app_state"]?.stringValue, "background")
        XCTAssertEqual(try before.json()["token"]?.stringValue, "ab12")
        let after = try await client.send("GET", "/api/v1/devices/ab12/screen?at=1800000060000")
        XCTAssertEqual(try after.json()["online"], .bool(true))
        let timeline = try await client.send("GET", "/api/v1/devices/ab12/timeline?until=1800000060000")
        XCTAssertEqual(try timeline.json()["entries"], .array([]), "no push yet")

        let bad: [(String, String, String?, String)] = [
            ("GET", "/api/v1/devices/ab12/screen?at=yesterday", nil, "milliseconds since 1970"),
            ("GET", "/api/v1/devices/zz/screen", nil, "hexadecimal"),
            ("POST", "/api/v1/devices/ab12/changes", #"{"change":"sleep"}"#, "sleep"),
            ("PUT", "/api/v1/devices/ab12", #"{"offline_until":1}"#, "offline_until"),
        ]
        for (method, path, body, message) in bad {
            let answer = try await client.send(method, path, body: body)
            XCTAssertEqual(answer.status, 400, "\(method) \(path): \(answer.text)")
            XCTAssertTrue(answer.text.contains(message), "\(method) \(path): \(answer.text)")
        }
        let forget = try await client.send("DELETE", "/api/v1/devices/ab12")
        XCTAssertEqual(forget.status, 200, "a device with changes only can be forgotten")
        await harness.stop()
        XCTAssertEqual(harness.mock.deviceChanges.events(token: "ab12"), [])
    }

    func testDeleteForgetsEveryDevice() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        _ = try await harness.client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"expired"}"#)
        _ = try await harness.client.send("PUT", "/api/v1/devices/bb", body: #"{"state":"otherEnvironment"}"#)
        let answer = try await harness.client.send("DELETE", "/api/v1/devices")
        await harness.stop()
        XCTAssertEqual(try answer.json()["removed"]?.integerValue, 2)
        XCTAssertTrue(harness.mock.devices.all().isEmpty)
    }

    func testBadDeviceRequestsAre400s() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let notJSON = try await client.send("PUT", "/api/v1/devices/abcd", body: "unregistered")
        let unknownState = try await client.send("PUT", "/api/v1/devices/abcd", body: #"{"state":"sleeping"}"#)
        let noBody = try await client.send("PUT", "/api/v1/devices/abcd")
        let badToken = try await client.send("PUT", "/api/v1/devices/not-hex", body: #"{"state":"expired"}"#)
        await harness.stop()
        for answer in [notJSON, unknownState, noBody, badToken] {
            XCTAssertEqual(answer.status, 400, answer.text)
            XCTAssertNotNil(try answer.json()["error"]?.stringValue, answer.text)
        }
        XCTAssertTrue(harness.mock.devices.all().isEmpty)
    }

    func testAddListAndRemoveFaultRules() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let rule = #"{"name":"flaky","match":{"topic":"com.example.app"},"count":1,"action":{"type":"status","status":500,"reason":"InternalServerError"}}"#
        let added = try await client.send("POST", "/api/v1/faults", body: rule)
        XCTAssertEqual(added.status, 201, added.text)
        let id = try XCTUnwrap(try added.json()["id"]?.stringValue)
        XCTAssertEqual(harness.mock.faults.entries.map(\.id), [id])

        let list = try await client.send("GET", "/api/v1/faults")
        guard case .array(let rules)? = try list.json()["faults"] else { return XCTFail(list.text) }
        XCTAssertEqual(rules.first?["id"]?.stringValue, id)
        XCTAssertEqual(rules.first?["name"]?.stringValue, "flaky")
        XCTAssertEqual(rules.first?.value(at: ["action", "type"])?.stringValue, "status")

        let removed = try await client.send("DELETE", "/api/v1/faults/\(id)")
        let missing = try await client.send("DELETE", "/api/v1/faults/\(id)")
        XCTAssertEqual(removed.status, 200)
        XCTAssertEqual(missing.status, 404)

        _ = try await client.send("POST", "/api/v1/faults", body: rule)
        _ = try await client.send("POST", "/api/v1/faults", body: rule)
        let cleared = try await client.send("DELETE", "/api/v1/faults")
        await harness.stop()
        XCTAssertEqual(try cleared.json()["removed"]?.integerValue, 2)
        XCTAssertTrue(harness.mock.faults.entries.isEmpty)
    }

    func testAnInvalidFaultRuleIsA400() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let answer = try await harness.client.send("POST", "/api/v1/faults", body: #"{"name":"x"}"#)
        await harness.stop()
        XCTAssertEqual(answer.status, 400)
        XCTAssertTrue(try answer.json()["error"]?.stringValue?.contains("action") == true, answer.text)
    }

    func testAFullRegistryAnswers409AndDeletingFreesRoom() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        for index in 0..<DeviceRegistry.limitDevices {
            try harness.mock.devices.set(String(index, radix: 16).count % 2 == 0 ? String(index, radix: 16) : "0" + String(index, radix: 16), .expired)
        }
        let client = harness.client
        let full = try await client.send("PUT", "/api/v1/devices/abcdef0123", body: #"{"state":"expired"}"#)
        let replace = try await client.send("PUT", "/api/v1/devices/00", body: #"{"state":"otherEnvironment"}"#)
        let delete = try await client.send("DELETE", "/api/v1/devices/01")
        let afterDelete = try await client.send("PUT", "/api/v1/devices/abcdef0123", body: #"{"state":"expired"}"#)
        let count = harness.mock.devices.all().count
        await harness.stop()
        XCTAssertEqual(full.status, 409, full.text)
        XCTAssertTrue(try full.json()["error"]?.stringValue?.contains("at most 100000 devices") == true, full.text)
        XCTAssertEqual(replace.status, 200, replace.text)
        XCTAssertEqual(delete.status, 200, delete.text)
        XCTAssertEqual(afterDelete.status, 200, afterDelete.text)
        XCTAssertEqual(count, DeviceRegistry.limitDevices)
    }

    func testTooManyOrTooLongTopicsAre400s() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let client = harness.client
        let topics = (0...DeviceState.maximumTopics).map { "\"com.example.app\($0)\"" }
        let tooMany = try await client.send("PUT", "/api/v1/devices/aa", body: #"{"state":"topics","topics":[\#(topics.joined(separator: ","))]}"#)
        let tooLong = try await client.send("PUT", "/api/v1/devices/aa",
                                            body: #"{"state":"topics","topics":["\#(String(repeating: "a", count: 256))"]}"#)
        let fits = try await client.send("PUT", "/api/v1/devices/aa",
                                         body: #"{"state":"topics","topics":[\#(topics.dropLast().joined(separator: ","))]}"#)
        await harness.stop()
        XCTAssertEqual(tooMany.status, 400, tooMany.text)
        XCTAssertTrue(try tooMany.json()["error"]?.stringValue?.contains("at most 100 topics") == true, tooMany.text)
        XCTAssertEqual(tooLong.status, 400, tooLong.text)
        XCTAssertTrue(try tooLong.json()["error"]?.stringValue?.contains("at most 255 bytes") == true, tooLong.text)
        XCTAssertEqual(fits.status, 200, fits.text)
    }

    func testAFullFaultPlanAnswers409() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        for _ in 0..<FaultPlan.limitRules { harness.mock.faults.add(FaultRule(action: .stall)) }
        let full = try await harness.client.send("POST", "/api/v1/faults", body: #"{"action":{"type":"stall"}}"#)
        let id = harness.mock.faults.entries[0].id
        let delete = try await harness.client.send("DELETE", "/api/v1/faults/\(id)")
        let afterDelete = try await harness.client.send("POST", "/api/v1/faults", body: #"{"action":{"type":"stall"}}"#)
        await harness.stop()
        XCTAssertEqual(full.status, 409, full.text)
        XCTAssertTrue(try full.json()["error"]?.stringValue?.contains("at most 1000 rules") == true, full.text)
        XCTAssertEqual(delete.status, 200)
        XCTAssertEqual(afterDelete.status, 201, afterDelete.text)
    }

    func testASharedTopicBudgetPastItsLimitAnswers409() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let limits = harness.mock.devices.limits
        let topics = (0..<DeviceState.maximumTopics).map { "com.example.app\($0)" }
        for index in 0..<(limits.topics / topics.count) {
            try harness.mock.devices.set(String(format: "%08x", index), .topics(topics))
        }
        let client = harness.client
        let full = try await client.send("PUT", "/api/v1/devices/abcdef0123", body: #"{"state":"topics","topics":["com.example.app"]}"#)
        let other = try await client.send("PUT", "/api/v1/devices/abcdef0123", body: #"{"state":"expired"}"#)
        await harness.stop()
        XCTAssertEqual(full.status, 409, full.text)
        XCTAssertTrue(try full.json()["error"]?.stringValue?.contains("at most 200000 topics") == true, full.text)
        XCTAssertEqual(other.status, 200, other.text)
    }
}
