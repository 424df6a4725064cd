import APNsModel
import DeviceSimulation
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The mock's own operations on devices and faults (the ones the control API calls), without a shared store: each
/// changes this mock, a bound reached or a state out of bounds is refused with a sentence, and nothing is half made.
final class MockOperationsTests: XCTestCase {
    private func update(_ text: String) throws -> DeviceUpdate {
        try DeviceUpdate(json: try JSONValue.parse(Array(text.utf8)), now: 1_800_000_000_000)
    }

    func testFaultsAreAddedRemovedAndBoundedByThePlansLimit() async throws {
        let mock = try Mock(configuration: MockConfiguration())
        defer { mock.shutdown() }
        let id = try await mock.addFault(FaultRule(action: .stall))
        XCTAssertEqual(mock.faults.entries.map(\.id), [id])
        let removed = try await mock.removeFault(id: id)
        let again = try await mock.removeFault(id: id)
        XCTAssertEqual([removed, again], [true, false])
        for _ in 0..<FaultPlan.limitRules { mock.faults.add(FaultRule(action: .drop)) }
        do {
            _ = try await mock.addFault(FaultRule(action: .drop))
            XCTFail("a full plan takes no more rules")
        } catch {
            guard case .full(let text) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("at most \(FaultPlan.limitRules) rules"), text)
        }
        let cleared = try await mock.removeAllFaults()
        XCTAssertEqual(cleared, FaultPlan.limitRules)
        XCTAssertTrue(mock.faults.entries.isEmpty)
    }

    func testADeviceUpdateSetsTheStateAndTheVirtualDeviceAndRemovingForgetsBoth() async throws {
        let mock = try Mock(configuration: MockConfiguration())
        defer { mock.shutdown() }
        let token = "aabbccdd"
        try await mock.updateDevice(token, try update(#"{"state": "unregistered", "online": false}"#))
        XCTAssertEqual(mock.devices.all()[token], .unregistered(timestamp: nil))
        XCTAssertFalse(mock.deviceChanges.events(token: token).isEmpty)
        // A state made in code, past the bounds the JSON form already refuses.
        var tooMany = try update(#"{"state": "expired"}"#)
        tooMany.state = .topics((0...100).map { "com.example.app\($0)" })
        do {
            try await mock.updateDevice(token, tooMany)
            XCTFail("101 topics are past the registry's bounds")
        } catch {
            guard case .outOfBounds = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(mock.devices.all()[token], .unregistered(timestamp: nil), "the refused update changed nothing")
        let removed = try await mock.removeDevice(token)
        let again = try await mock.removeDevice(token)
        XCTAssertEqual([removed, again], [true, false])
        XCTAssertTrue(mock.deviceChanges.events(token: token).isEmpty)
    }
}

/// Connection ids: every listener of one mock that numbers no connections itself draws from the mock, so two
/// HTTP/1.1 endpoints (or one and the FCM front door's uplink) on one mock never share an id.
final class MockConnectionIDTests: XCTestCase {
    func testTheMockMintsDistinctIDsAboveTheHTTP2ListenersCounter() throws {
        let mock = try Mock(configuration: MockConfiguration())
        defer { mock.shutdown() }
        let ids = (0..<1000).map { _ in mock.newConnectionID() }
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertTrue(ids.allSatisfy { $0 >= Mock.firstMintedConnectionID })
    }
}
