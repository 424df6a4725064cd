import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// device-rules §11 (store and forward) and §12 (priority 5 and 1 in order).
final class DeviceStoreAndForwardTests: XCTestCase {
    private func timeline(_ events: [DeviceEvent], settings: DeviceSettings = Dev.settings()) -> DeviceTimeline {
        DeviceTimeline(settings: settings, events: events)
    }

    func testAnOnlineDeviceGetsThePushAtOnce() {
        let t = timeline([.push(Dev.alert(id: "a", body: "Hi"), at: Dev.t0)])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.t0)), ["a delivered 11-delivered-online"])
        XCTAssertEqual(t.screen(at: Dev.t0).stored, [])
    }

    func testExpirationZeroIsDroppedWhileOfflineButDeliveredWhileOnline() {
        let t = timeline([
            .push(Dev.alert(id: "online", body: "x", expiration: 0), at: Dev.at(0)),
            .change(.offline, at: Dev.at(1)),
            .push(Dev.alert(id: "offline", body: "y", expiration: 0), at: Dev.at(2)),
            .change(.online, at: Dev.at(3)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(3))), [
            "online delivered 11-delivered-online", "offline dropped 11-expiration-zero",
        ])
        XCTAssertEqual(t.screen(at: Dev.at(3)).notifications.map(\.apnsID), ["online"])
    }

    func testAnExpirationAlreadyPastIsNotStored() {
        let past = Dev.t0 / 1000 - 1
        let t = timeline([
            .change(.offline, at: Dev.t0), .push(Dev.alert(id: "late", body: "x", expiration: past), at: Dev.at(1)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(1))), ["late dropped 11-already-expired"])
        XCTAssertEqual(t.screen(at: Dev.at(1)).stored, [])
    }

    func testAPNsStoresOnePushPerAppAndKeepsTheLatest() {
        let t = timeline([
            .change(.offline, at: Dev.t0),
            .push(Dev.alert(id: "a1", body: "first"), at: Dev.at(1)),
            .push(Dev.alert(id: "other", body: "other app", topic: "com.example.other"), at: Dev.at(2)),
            .push(Dev.alert(id: "a2", body: "second"), at: Dev.at(3)),
            .push(Dev.alert(id: "a3", body: "third"), at: Dev.at(4)),
            .change(.online, at: Dev.at(10)),
        ])
        XCTAssertEqual(t.screen(at: Dev.at(5)).stored.map(\.apnsID), ["other", "a3"])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(10))), [
            "a1 stored 11-store-and-forward",
            "other stored 11-store-and-forward",
            "a1 replaced 11-one-stored-per-app", "a2 stored 11-store-and-forward",
            "a2 replaced 11-one-stored-per-app", "a3 stored 11-store-and-forward",
            "other delivered 11-delivered-on-reconnect", "a3 delivered 11-delivered-on-reconnect",
        ])
        let screen = t.screen(at: Dev.at(10))
        XCTAssertEqual(screen.stored, [])
        XCTAssertEqual(screen.notifications.map(\.apnsID), ["a3", "other"])
        XCTAssertEqual(screen.notifications.map(\.time), [Dev.at(10), Dev.at(10)])
    }

    func testAVoIPPushAndAnAlertForTheSameAppShareTheOneStoredSlot() {
        let voip = Dev.push(#"{"call": "x"}"#, id: "voip", type: .voip, topic: Dev.topic + ".voip")
        let t = timeline([
            .change(.offline, at: Dev.t0), .push(Dev.alert(id: "alert", body: "x"), at: Dev.at(1)),
            .push(voip, at: Dev.at(2)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(2))).dropFirst(), [
            "alert replaced 11-one-stored-per-app", "voip stored 11-store-and-forward",
        ])
    }

    func testAStoredPushThatExpiresBeforeTheDeviceComesBackIsDroppedAtItsExpiration() {
        let expiry = Dev.t0 / 1000 + 60
        let t = timeline([
            .change(.offline, at: Dev.t0),
            .push(Dev.alert(id: "sale", body: "x", expiration: expiry), at: Dev.at(1)),
            .change(.online, at: Dev.at(300)),
        ])
        XCTAssertEqual(t.screen(at: Dev.at(59)).stored.map(\.deliverableUntil), [Dev.at(60)])
        XCTAssertEqual(t.screen(at: Dev.at(59)).stored.map(\.limitedBy), [.apnsExpiration])
        XCTAssertEqual(t.screen(at: Dev.at(60)).stored, [], "gone at the instant of its apns-expiration")
        let entries = t.entries(until: Dev.at(300))
        XCTAssertEqual(Dev.summary(entries), ["sale stored 11-store-and-forward", "sale dropped 11-expired-while-stored"])
        XCTAssertEqual(entries.map(\.time), [Dev.at(1), Dev.at(60)])
        XCTAssertEqual(t.screen(at: Dev.at(300)).notifications, [])
    }

    func testComingOnlineAtTheInstantOfExpirationIsTooLate() {
        let t = timeline([
            .change(.offline, at: Dev.t0),
            .push(Dev.alert(id: "edge", body: "x", expiration: Dev.t0 / 1000 + 60), at: Dev.at(1)),
            .change(.online, at: Dev.at(60)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(60))).last, "edge dropped 11-expired-while-stored")
    }

    func testTheStorageLimitIsAModelSettingThatDropsOldStoredPushes() {
        var settings = Dev.settings()
        settings.storageLimitMillis = 10_000
        let t = timeline([
            .change(.offline, at: Dev.t0), .push(Dev.alert(id: "old", body: "x"), at: Dev.at(1)),
            .push(Dev.alert(id: "capped", body: "y", topic: "com.example.other", expiration: Dev.t0 / 1000 + 3600), at: Dev.at(2)),
            .change(.online, at: Dev.at(60)),
        ], settings: settings)
        XCTAssertEqual(t.screen(at: Dev.at(5)).stored.map(\.limitedBy), [.storageLimit, .storageLimit])
        let entries = t.entries(until: Dev.at(60))
        XCTAssertEqual(Dev.summary(entries).suffix(2), ["old dropped 11-storage-limit", "capped dropped 11-storage-limit"])
        XCTAssertEqual(entries.suffix(2).map(\.time), [Dev.at(11), Dev.at(12)])
        XCTAssertTrue(entries[2].explanation.contains("model"), entries[2].explanation)
    }

    func testTheDefaultStorageLimitIsThirtyDays() {
        let t = timeline([.change(.offline, at: Dev.t0), .push(Dev.alert(id: "a", body: "x"), at: Dev.t0)])
        XCTAssertEqual(t.screen(at: Dev.t0).stored.first?.deliverableUntil, Dev.t0 + 30 * 86_400_000)
        let thirtyDays = Dev.t0 + 30 * 86_400_000
        XCTAssertEqual(t.screen(at: thirtyDays - 1).stored.count, 1)
        XCTAssertEqual(Dev.summary(t.entries(until: thirtyDays)).last, "a dropped 11-storage-limit")
    }

    func testHugeAndNegativeWireValuesSaturateInsteadOfTrapping() {
        let t = timeline([
            .change(.offline, at: Dev.t0),
            .push(Dev.alert(id: "max", body: "x", expiration: .max), at: Dev.at(1)),
            .push(Dev.alert(id: "neg", body: "y", topic: "com.example.other", expiration: .min), at: Dev.at(2)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(2))), ["max stored 11-store-and-forward", "neg dropped 11-already-expired"])
        XCTAssertEqual(t.screen(at: Dev.at(2)).stored.first?.limitedBy, .storageLimit)
        var settings = Dev.settings()
        settings.storageLimitMillis = .max
        let far = timeline([.change(.offline, at: .max - 5), .push(Dev.alert(id: "far", body: "x"), at: .max - 1)], settings: settings)
        XCTAssertEqual(far.screen(at: .max - 1).stored.first?.deliverableUntil, .max)
        XCTAssertEqual(DeviceTime.millis(seconds: Int64.max), .max)
        XCTAssertEqual(DeviceTime.millis(seconds: Int64.min), .min)
        XCTAssertEqual(DeviceTime.millis(seconds: 1e300), .max)
        XCTAssertEqual(DeviceTime.millis(seconds: -1e300), .min)
        XCTAssertNil(DeviceTime.millis(seconds: .nan))
        XCTAssertEqual(DeviceTime.millis(seconds: 1.5), 1500)
        XCTAssertEqual(DeviceTime.adding(.max, to: 1), .max)
        XCTAssertEqual(DeviceTime.adding(-5, to: .min), .min)
        XCTAssertEqual(DeviceTime.difference(.max, -1), .max)
        XCTAssertEqual(DeviceTime.difference(.min, 1), .min)
    }

    func testPriorityFiveAndOneAreDeliveredInOrderAndSaySo() {
        let t = timeline([
            .push(Dev.alert(id: "p5", body: "a", priority: .considerPower), at: Dev.at(0)),
            .push(Dev.alert(id: "p1", body: "b", priority: .prioritizePower), at: Dev.at(1)),
            .push(Dev.alert(id: "p10", body: "c"), at: Dev.at(2)),
        ])
        let entries = t.entries(until: Dev.at(2))
        XCTAssertEqual(Dev.summary(entries), [
            "p5 delivered 12-low-priority-in-order", "p1 delivered 12-low-priority-in-order", "p10 delivered 11-delivered-online",
        ])
        XCTAssertTrue(entries[0].explanation.contains("in order"), entries[0].explanation)
        XCTAssertEqual(t.screen(at: Dev.at(2)).notifications.map(\.apnsID), ["p10", "p1", "p5"])
    }

    func testGoingOfflineTwiceOrOnlineTwiceChangesNothing() {
        let t = timeline([
            .change(.offline, at: Dev.at(0)), .change(.offline, at: Dev.at(1)),
            .push(Dev.alert(id: "a", body: "x"), at: Dev.at(2)),
            .change(.online, at: Dev.at(3)), .change(.online, at: Dev.at(4)),
        ])
        XCTAssertEqual(Dev.summary(t.entries(until: Dev.at(4))), ["a stored 11-store-and-forward", "a delivered 11-delivered-on-reconnect"])
    }
}
