import APNsModel
import DeviceSimulation
import MockAPNs
import MockTestSupport
import XCTest

/// What the server keeps for virtual devices: updates read from a body or `--devices` entry, the change log, and
/// records turned into timeline events (only what APNs accepted reaches a device).
final class VirtualDeviceTests: LeakCheckedTestCase {
    private let now: Int64 = 1_800_000_000_000

    private func update(_ text: String) throws -> DeviceUpdate {
        try DeviceUpdate(json: try JSONValue.parse(Array(text.utf8)), now: now)
    }

    func testAnUpdateReadsAStateChangesOrBoth() throws {
        let state = try update(#"{"state":"expired"}"#)
        XCTAssertEqual(state.state, .expired)
        XCTAssertTrue(state.changes.isEmpty)

        let both = try update(#"{"state":"expired","online":false,"app_state":"background","at":1800000005000}"#)
        XCTAssertEqual(both.state, .expired)
        XCTAssertEqual(both.changes, [.change(.appState(.background), at: 1_800_000_005_000), .change(.offline, at: 1_800_000_005_000)])

        let away = try update(#"{"offline_until":1800003600000}"#)
        XCTAssertNil(away.state)
        XCTAssertEqual(away.changes, [.change(.offline, at: now), .change(.online, at: 1_800_003_600_000)])

        let settings = try update(#"{"settings":{"background_budget_per_hour":1}}"#)
        guard case .change(.settings(let read))? = settings.changes.first?.kind else { return XCTFail("\(settings.changes)") }
        XCTAssertEqual(read.backgroundBudgetPerHour, 1)
        XCTAssertEqual(try update(#"{"push_to_start_tokens":["B2B2"]}"#).pushToStartTokens, ["B2B2"])
    }

    func testAnUpdateThatSaysNothingOrContradictsItselfIsRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("{}", "say what to set"),
            (#"{"online":"no"}"#, "\"online\" is true or false"),
            (#"{"offline_until":1800003600000,"online":true}"#, "contradicts"),
            (#"{"offline_until":1700000000000}"#, "not before \"at\""),
            (#"{"app_state":"asleep"}"#, "foreground, background, notRunning, forceQuit"),
            (#"{"settings":{"budget":1}}"#, "\"settings\""),
            (#"{"push_to_start_tokens":["xyz"]}"#, "even-length hex"),
            (#"{"online":false,"at":-1}"#, "\"at\""),
        ]
        for (body, message) in cases {
            XCTAssertThrowsError(try update(body), body) { error in
                XCTAssertTrue("\(error)".contains(message), "\(body): \(error)")
            }
        }
    }

    func testTheLogKeepsChangesPerDeviceBoundedAndKeepsTheNewestSettings() throws {
        let log = DeviceChangeLog()
        try log.append(.change(.settings(DeviceSettings(backgroundBudgetPerHour: 7)), at: 0), token: "AA")
        for index in 1...DeviceChangeLog.maxChangesPerDevice {
            try log.append(.change(index % 2 == 0 ? .online : .offline, at: Int64(index)), token: "aa")
        }
        let events = log.events(token: "aa")
        XCTAssertEqual(events.count, DeviceChangeLog.maxChangesPerDevice)
        XCTAssertEqual(events.first, .change(.settings(DeviceSettings(backgroundBudgetPerHour: 7)), at: 0),
                       "the oldest plain change gave way, not the settings")
        XCTAssertEqual(events.last?.time, Int64(DeviceChangeLog.maxChangesPerDevice))

        try log.append(.change(.liveActivityStarted(token: "A1A1", contentState: .object([])), at: 5), token: "aa")
        try log.setPushToStartTokens(["b2b2"], device: "aa")
        XCTAssertEqual(log.relatedTokens(device: "AA"), ["b2b2", "a1a1"])
        XCTAssertThrowsError(try log.setPushToStartTokens(Array(repeating: "cc", count: 17), device: "aa"))
        XCTAssertTrue(log.remove(token: "aa"))
        XCTAssertEqual(log.events(token: "aa"), [])
        XCTAssertEqual(log.relatedTokens(device: "aa"), [])
    }

    func testOnlyPushesTheSenderWasAnswered200ForBecomeEvents() throws {
        let accepted = RecordedRequest.sample(receivedAtMillis: now, apnsID: "0f1e2d3c-0000-4000-8000-00000000000a")
        guard case .push(let push)? = accepted.deviceEvent()?.kind else { return XCTFail("no push event") }
        XCTAssertEqual(push.apnsID, "0f1e2d3c-0000-4000-8000-00000000000a", "named by the ID it was answered with")
        XCTAssertEqual(push.topic, "com.example.app")
        XCTAssertEqual(accepted.deviceEvent()?.time, now)

        XCTAssertNil(RecordedRequest.sample(status: 410, reason: "Unregistered").deviceEvent())
        var refusedUpstream = accepted
        refusedUpstream.relay = RelayVerdict(status: 410, reason: "Unregistered")
        XCTAssertNil(refusedUpstream.deviceEvent(), "the upstream's 410 is what the sender got")
        var skipped = accepted
        skipped.relay = .notRelayed("not relayed: it does not match --relay-match")
        XCTAssertNotNil(skipped.deviceEvent(), "not relayed: the mock's own 200 stands")

        let log = DeviceChangeLog()
        try log.append(.change(.offline, at: now - 1), token: accepted.deviceToken ?? "")
        let other = RecordedRequest.sample(token: "ffee", apnsID: "0f1e2d3c-0000-4000-8000-00000000000b")
        let screen = log.timeline(token: accepted.deviceToken ?? "", records: [accepted, other]).screen(at: now + 1)
        XCTAssertEqual(screen.stored.map(\.apnsID), ["0f1e2d3c-0000-4000-8000-00000000000a"], "another token's push is not this device's")
    }
}
