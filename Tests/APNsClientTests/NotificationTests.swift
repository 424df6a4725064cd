import APNsClient
import APNsModel
import TestSupport
import XCTest

final class NotificationTests: LeakCheckedTestCase {
    private func headers(_ notification: some APNsNotificationRequest) -> [String: String] {
        Dictionary(notification.encodedRequest().headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    func testEveryPushTypeGetsItsTopicSuffixAndPushType() {
        let bundle = "com.example.app"
        let payload = JSONValue.object([.init("aps", .object([]))])
        let all: [APNsNotification] = [
            .alert(bundleID: bundle, body: "Hi"), .background(bundleID: bundle), .location(bundleID: bundle),
            .voip(bundleID: bundle, payload: payload), .complication(bundleID: bundle, payload: payload),
            .fileProvider(bundleID: bundle), .mdm(certificateUID: "com.apple.mgmt.uid", pushMagic: "magic"),
            .liveActivity(bundleID: bundle, payload: payload), .pushToTalk(bundleID: bundle),
            .widgets(bundleID: bundle), .controls(bundleID: bundle),
        ]
        XCTAssertEqual(Set(all.map(\.pushType)), Set(PushType.allCases))
        for notification in all {
            let fields = headers(notification)
            XCTAssertEqual(fields["apns-push-type"], notification.pushType.rawValue)
            let expectedTopic = notification.pushType == .mdm ? "com.apple.mgmt.uid" : bundle + (notification.pushType.topicSuffix ?? "")
            XCTAssertEqual(fields["apns-topic"], expectedTopic, "\(notification.pushType)")
        }
    }

    func testPriorityAndExpirationRules() {
        let background = headers(APNsNotification.background(bundleID: "com.example.app"))
        XCTAssertEqual(background["apns-priority"], "5")
        let widgets = headers(APNsNotification.widgets(bundleID: "com.example.app"))
        XCTAssertNil(widgets["apns-priority"])
        XCTAssertNil(widgets["apns-expiration"])
        let ptt = headers(APNsNotification.pushToTalk(bundleID: "com.example.app"))
        XCTAssertEqual(ptt["apns-priority"], "10")
        XCTAssertEqual(ptt["apns-expiration"], "0")
        let controls = headers(APNsNotification.controls(bundleID: "com.example.app"))
        XCTAssertEqual(controls["apns-priority"], "10")
        XCTAssertEqual(controls["apns-expiration"], "0")
        let alert = headers(APNsNotification.alert(bundleID: "com.example.app", body: "x", priority: .considerPower))
        XCTAssertEqual(alert["apns-priority"], "5")
    }

    func testSuffixIsNotDoubledAndOptionalHeadersAppear() {
        var push = APNsNotification.voip(bundleID: "com.example.app.voip", payload: .object([]))
        XCTAssertEqual(push.topic, "com.example.app.voip")
        push.collapseID = "c1"
        let id = UUID()
        push.apnsID = id
        let fields = headers(push)
        XCTAssertEqual(fields["apns-collapse-id"], "c1")
        XCTAssertEqual(fields["apns-id"], id.uuidString.lowercased())
        XCTAssertEqual(push.encodedRequest().apnsID, id.uuidString.lowercased())
    }

    func testAlertBuilderWritesTheAPSDictionary() {
        let push = APNsNotification.alert(bundleID: "b", title: "T", body: "B", badge: 3, sound: "default")
        XCTAssertEqual(String(decoding: push.encodedRequest().body, as: UTF8.self),
                       #"{"aps":{"alert":{"title":"T","body":"B"},"badge":3,"sound":"default"}}"#)
        XCTAssertEqual(String(decoding: APNsNotification.widgets(bundleID: "b").encodedRequest().body, as: UTF8.self),
                       #"{"aps":{"content-changed":true}}"#)
    }

    func testRawNotificationSendsHeadersAsGiven() {
        let raw = APNsRawNotification(pushType: "alert", topic: nil, payload: [0x7B, 0x7D],
                                      headers: [HeaderField(name: "apns-priority", value: "10"),
                                                HeaderField(name: "apns-priority", value: "5")])
        let encoded = raw.encodedRequest()
        XCTAssertEqual(encoded.headers.map(\.name), ["apns-push-type", "apns-priority", "apns-priority"])
        XCTAssertEqual(encoded.body, Array("{}".utf8))
        XCTAssertNil(encoded.apnsID)
    }
}
