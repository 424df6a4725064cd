import FCMModel
import JSON
import XCTest

/// The APNs request FCM makes for an iOS message (fcm-rules §5).
final class APNsTranslationTests: XCTestCase {
    private let now: Int64 = 1_767_225_600

    private func translate(_ message: String, topic: String? = nil, now: Int64? = nil) throws -> APNsTranslation {
        let parsed = try FCMSendRequest.parse(Array(#"{"message": \#(message)}"#.utf8)).message
        return APNsTranslation.translate(parsed, fid: "cFID", senderID: "42", messageID: 1_767_225_600_123_456, topic: topic,
                                         bundleID: "com.example.app", nowSeconds: now ?? self.now)
    }

    private func header(_ push: APNsTranslation, _ name: String) -> String? {
        push.headers.last { $0.name == name }?.value
    }

    func testPushTypeTopicAndPriority() throws {
        // (message, push type, topic, priority)
        let cases: [(String, String, String, String)] = [
            (#"{"topic": "a", "notification": {"title": "t"}}"#, "alert", "com.example.app", "10"),
            (#"{"topic": "a", "apns": {"payload": {"aps": {"alert": "hi"}}}}"#, "alert", "com.example.app", "10"),
            (#"{"topic": "a", "apns": {"payload": {"aps": {"badge": 0}}}}"#, "alert", "com.example.app", "10"),
            (#"{"topic": "a", "data": {"k": "v"}}"#, "background", "com.example.app", "5"),
            (#"{"topic": "a"}"#, "background", "com.example.app", "5"),
            (#"{"topic": "a", "apns": {"payload": {"aps": {"content-available": 1}}}}"#, "background", "com.example.app", "5"),
            (#"{"topic": "a", "apns": {"live_activity_token": "ab", "payload": {"aps": {"event": "end"}}}}"#, "liveactivity",
             "com.example.app.push-type.liveactivity", "10"),
            (#"{"topic": "a", "notification": {"title": "t"}, "apns": {"headers": {"apns-push-type": "voip", "apns-topic": "com.example.app.voip"}}}"#,
             "voip", "com.example.app.voip", "10"),
            (#"{"topic": "a", "notification": {"title": "t"}, "apns": {"headers": {"apns-push-type": "background"}}}"#, "background", "com.example.app", "5"),
            (#"{"topic": "a", "notification": {"title": "t"}, "apns": {"headers": {"apns-priority": "5"}}}"#, "alert", "com.example.app", "5"),
            (#"{"topic": "a", "apns": {"headers": {"apns-push-type": "liveactivity"}, "payload": {"aps": {"alert": "x"}}}}"#, "liveactivity",
             "com.example.app.push-type.liveactivity", "10"),
        ]
        for (message, type, topic, priority) in cases {
            let push = try translate(message)
            XCTAssertEqual(push.pushType, type, message)
            XCTAssertEqual(header(push, "apns-push-type"), type, message)
            XCTAssertEqual(header(push, "apns-topic"), topic, message)
            XCTAssertEqual(header(push, "apns-priority"), priority, message)
        }
    }

    func testHeaders() throws {
        let push = try translate(#"{"topic": "a", "notification": {"title": "t"}, "apns": {"headers": {"Apns-Collapse-Id": "c1", "authorization": "bearer x", ":path": "/x", "host": "h", "apns-id": "123e4567-e89b-12d3-a456-4266554400a0", "apns-collapse-id": "c2", "apns-expiration": "0"}}}"#)
        XCTAssertEqual(push.headers.map(\.name), ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id"])
        XCTAssertEqual(header(push, "apns-collapse-id"), "c2", "a repeated name (in any case) keeps its last value")
        XCTAssertEqual(header(push, "apns-expiration"), "0", "the sender's expiration wins")
        XCTAssertEqual(try header(translate(#"{"topic": "a"}"#), "apns-expiration"), String(now + 2_592_000), "now plus 30 days")
        XCTAssertEqual(try header(translate(#"{"topic": "a"}"#, now: Int64.max - 10), "apns-expiration"), String(Int64.max), "saturates")
        XCTAssertNil(push.liveActivityToken)
    }

    func testPayload() throws {
        let push = try translate(#"{"topic": "news", "notification": {"title": "T", "body": "B", "image": "https://x/n.png"}, "data": {"k": "v", "shared": "data", "aps": "no", "from": "x"}, "fcm_options": {"analytics_label": "label"}, "apns": {"payload": {"aps": {"sound": "default", "mutable-content": 1}, "shared": "apns", "gcm.message_id": "mine"}}}"#.replacingOccurrences(of: #", "from": "x""#, with: ""), topic: "news")
        let payload = push.payloadJSON
        XCTAssertEqual(payload.objectKeys, ["aps", "k", "shared", "gcm.message_id", "google.c.a.e", "google.c.fid", "google.c.sender.id",
                                            "google.c.a.m_l", "from", "fcm_options"])
        XCTAssertEqual(payload["aps"]?.jsonText(), #"{"alert":{"title":"T","body":"B"},"sound":"default","mutable-content":1}"#)
        XCTAssertEqual(payload["shared"], .string("apns"), "apns.payload wins over data")
        XCTAssertEqual(payload["gcm.message_id"], .string("1767225600123456"), "FCM's keys win, as strings")
        XCTAssertEqual(payload["google.c.a.e"], .string("1"))
        XCTAssertEqual(payload["google.c.fid"], .string("cFID"))
        XCTAssertEqual(payload["google.c.sender.id"], .string("42"))
        XCTAssertEqual(payload["google.c.a.m_l"], .string("label"))
        XCTAssertEqual(payload["from"], .string("/topics/news"))
        XCTAssertEqual(payload["fcm_options"]?.jsonText(), #"{"image":"https://x/n.png"}"#)
        XCTAssertEqual(try JSONValue.parse(push.payload), payload, "the bytes are the JSON")
    }

    func testAlertComesFromTheNotificationUnlessApsHasOne() throws {
        let cases: [(String, String)] = [
            (#"{"topic": "a", "notification": {"title": "T"}}"#, #"{"alert":{"title":"T"}}"#),
            (#"{"topic": "a", "notification": {"body": "B"}}"#, #"{"alert":{"body":"B"}}"#),
            (#"{"topic": "a", "notification": {"title": "", "body": "B"}}"#, #"{"alert":{"body":"B"}}"#),
            (#"{"topic": "a", "notification": {"title": "T"}, "apns": {"payload": {"aps": {"alert": "plain"}}}}"#, #"{"alert":"plain"}"#),
            (#"{"topic": "a", "notification": {"title": "T"}, "apns": {"payload": {"aps": {"alert": {"subtitle": "S"}}}}}"#, #"{"alert":{"subtitle":"S"}}"#),
            (#"{"topic": "a", "notification": {"image": "https://x"}}"#, #"{}"#),
            (#"{"topic": "a", "data": {"k": "v"}}"#, #"{}"#),
            (#"{"topic": "a", "apns": {"payload": {"aps": {"content-available": 1}}}}"#, #"{"content-available":1}"#),
        ]
        for (message, aps) in cases {
            XCTAssertEqual(try translate(message).payloadJSON["aps"]?.jsonText(), aps, message)
        }
    }

    func testImagesAndLabels() throws {
        XCTAssertEqual(try translate(#"{"topic": "a", "notification": {"title": "t", "image": "https://n"}, "apns": {"fcm_options": {"image": "https://a"}}}"#)
            .payloadJSON["fcm_options"]?["image"], .string("https://a"))
        XCTAssertNil(try translate(#"{"topic": "a", "notification": {"title": "t"}}"#).payloadJSON["fcm_options"])
        XCTAssertEqual(try translate(#"{"topic": "a", "fcm_options": {"analytics_label": "m"}, "apns": {"fcm_options": {"analytics_label": "ios"}}}"#)
            .payloadJSON["google.c.a.m_l"], .string("ios"))
        XCTAssertNil(try translate(#"{"topic": "a"}"#).payloadJSON["google.c.a.m_l"])
        XCTAssertNil(try translate(#"{"topic": "a"}"#).payloadJSON["from"], "no from without the topic the send came through")
    }

    func testLiveActivity() throws {
        let push = try translate(#"{"topic": "a", "apns": {"live_activity_token": "feedface", "headers": {"apns-priority": "5"}, "payload": {"aps": {"timestamp": 1, "event": "update", "content-state": {}}}}}"#)
        XCTAssertEqual(push.liveActivityToken, "feedface")
        XCTAssertEqual(push.pushType, "liveactivity")
        XCTAssertEqual(header(push, "apns-priority"), "5")
        XCTAssertEqual(push.payloadJSON["aps"]?.objectKeys, ["timestamp", "event", "content-state"])
    }
}
