import FCMModel
import XCTest

/// FCM's own checks after the front end (fcm-rules §3.6–§3.11): reserved data keys, size, the data-only priority
/// rule, the platform blocks and analytics labels. Each refusal is 400 with an `FcmError` and the field named.
final class MessageRulesTests: XCTestCase {
    private let token = FCMFixture.registration.token

    /// The error for `message` (a JSON object's text), or nil when it is accepted.
    private func check(_ message: String, limits: FCMLimits = FCMLimits()) -> FCMError? {
        do {
            _ = try FCMSendRequest.parse(Array(#"{"message": \#(message)}"#.utf8), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// Asserts each case: nil field means accepted.
    private func assertCases(_ cases: [(String, String?)], file: StaticString = #filePath, line: UInt = #line) {
        for (message, field) in cases {
            let error = check(message)
            if let field {
                XCTAssertEqual(error?.httpStatus, 400, message, file: file, line: line)
                XCTAssertEqual(error?.errorCode, .invalidArgument, "\(message): \(String(describing: error))", file: file, line: line)
                XCTAssertEqual(error?.fieldViolations.first?.field, field, message, file: file, line: line)
            } else {
                XCTAssertNil(error, message, file: file, line: line)
            }
        }
    }

    func testReservedDataKeys() {
        let keys: [(String, Bool)] = [
            ("from", true), ("message_type", true), ("google.c.fid", true), ("google.", true), ("gcm.message_id", true),
            ("gcm.notification.title", true), ("gcm.n.e", true),
            ("From", false), ("googleplay", false), ("google", false), ("gcm", false), ("gcmx", false), ("collapse_key", false),
            ("notification", false), ("fromage", false), ("x.from", false),
        ]
        for (key, reserved) in keys {
            for (block, field) in [("", "message.data"), ("\"android\": {\"data\": {\"\(key)\": \"v\"}}, ", "message.android.data"),
                                   ("\"webpush\": {\"data\": {\"\(key)\": \"v\"}}, ", "message.webpush.data")] {
                let message = block.isEmpty ? #"{"topic": "a", "data": {"ok": "1", "\#(key)": "v"}}"# : "{\(block)\"topic\": \"a\"}"
                let error = check(message)
                if reserved {
                    XCTAssertEqual(error?.message, "Invalid data payload key: \(key)", message)
                    XCTAssertEqual(error?.fieldViolations.first?.field, field, message)
                } else {
                    XCTAssertNil(error, message)
                }
            }
        }
    }

    func testSize() {
        let limits = FCMLimits()
        XCTAssertEqual(limits.messageBytes, 4096)
        XCTAssertEqual(limits.topicMessageBytes, 4096)
        func data(_ bytes: Int) -> String { #""data": {"k": "\#(String(repeating: "x", count: bytes - 1))"}"# }
        XCTAssertNil(check(#"{"token": "\#(token)", \#(data(4096))}"#))
        let over = check(#"{"token": "\#(token)", \#(data(4097))}"#)
        XCTAssertEqual(over?.message, "Message is too big")
        XCTAssert(over?.fieldViolations.first?.description.contains("4097 bytes") == true)
        // Multi-byte characters count as their UTF-8 bytes: 1366 × 3 = 4098.
        XCTAssertNotNil(check(#"{"token": "\#(token)", "data": {"k": "\#(String(repeating: "€", count: 1366))"}}"#))
        // The topic limit is its own setting (Google's pages say 2048 and 4096).
        let strict = FCMLimits(topicMessageBytes: 2048)
        XCTAssertNil(check(#"{"topic": "a", \#(data(2048))}"#, limits: strict))
        XCTAssertNotNil(check(#"{"topic": "a", \#(data(2049))}"#, limits: strict))
        XCTAssertNotNil(check(#"{"condition": "'a' in topics", \#(data(2049))}"#, limits: strict))
        XCTAssertNil(check(#"{"token": "\#(token)", \#(data(2049))}"#, limits: strict), "a token message keeps 4096")
        // Notification text counts; the largest data map counts once.
        let text = String(repeating: "t", count: 2048)
        XCTAssertNotNil(check(#"{"topic": "a", "notification": {"title": "\#(text)", "body": "\#(text)"}, "data": {"k": "v"}}"#))
        let half = String(repeating: "x", count: 3000)
        XCTAssertNil(check(#"{"topic": "a", "data": {"k": "\#(half)"}, "android": {"data": {"k": "\#(half)"}}, "webpush": {"data": {"k": "\#(half)"}}}"#))
    }

    func testPayloadBytes() throws {
        let message = try FCMSendRequest.parse(Array(#"{"message": {"topic": "a", "notification": {"title": "ab", "body": "cde", "image": "https://x"}, "data": {"k": "vv", "é": "1"}}}"#.utf8)).message
        XCTAssertEqual(MessageSize.payloadBytes(of: message), 2 + 3 + 1 + 2 + 2 + 1)
    }

    func testDataOnlyPriority() {
        let cases: [(String, String?)] = [
            (#"{"token": "\#(token)", "data": {"k": "v"}, "apns": {"headers": {"apns-priority": "10"}}}"#, "message.apns.headers"),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "1"}}}"#, "message.apns.headers"),
            (#"{"topic": "a", "data": {"k": "v"}, "apns": {"headers": {"APNS-PRIORITY": "10"}}}"#, "message.apns.headers"),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"content-available": 1}}}}"#, "message.apns.headers"),
            (#"{"topic": "a", "notification": {"image": "https://x"}, "apns": {"headers": {"apns-priority": "10"}}}"#, "message.apns.headers"),
            (#"{"topic": "a", "data": {"k": "v"}, "apns": {"headers": {"apns-priority": "5"}}}"#, nil),
            (#"{"topic": "a", "data": {"k": "v"}, "apns": {"headers": {"apns-priority": " 5 "}}}"#, nil),
            (#"{"topic": "a", "data": {"k": "v"}}"#, nil),
            (#"{"topic": "a", "notification": {"title": "t"}, "apns": {"headers": {"apns-priority": "10"}}}"#, nil),
            (#"{"topic": "a", "notification": {"body": "b"}, "apns": {"headers": {"apns-priority": "10"}}}"#, nil),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"alert": "hi"}}}}"#, nil),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"badge": 2}}}}"#, nil),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "10"}, "payload": {"aps": {"sound": "default"}}}}"#, nil),
            (#"{"topic": "a", "apns": {"headers": {"apns-priority": "10"}, "live_activity_token": "ab"}}"#, nil),
        ]
        assertCases(cases)
    }

    func testDataOnlyDefinition() throws {
        func message(_ json: String) throws -> FCMMessage {
            try FCMSendRequest.parse(Array(#"{"message": \#(json)}"#.utf8)).message
        }
        XCTAssertTrue(try message(#"{"topic": "a"}"#).isDataOnlyForApple)
        XCTAssertTrue(try message(#"{"topic": "a", "notification": {"title": ""}}"#).isDataOnlyForApple, "empty text shows nothing")
        XCTAssertTrue(try message(#"{"topic": "a", "apns": {"payload": {"aps": {"content-available": 1, "mutable-content": 1}}}}"#).isDataOnlyForApple)
        XCTAssertFalse(try message(#"{"topic": "a", "notification": {"title": "t"}}"#).isDataOnlyForApple)
        XCTAssertFalse(try message(#"{"topic": "a", "apns": {"payload": {"aps": {"alert": {"body": "b"}}}}}"#).isDataOnlyForApple)
    }

    func testApnsBlock() {
        assertCases([
            (#"{"topic": "a", "apns": {"payload": {"aps": "x"}}}"#, "message.apns.payload"),
            (#"{"topic": "a", "apns": {"payload": {"aps": [1]}}}"#, "message.apns.payload"),
            (#"{"topic": "a", "apns": {"payload": {"custom": [1, {"x": null}]}}}"#, nil),
            (#"{"topic": "a", "apns": {"payload": {}}}"#, nil),
            (#"{"topic": "a", "apns": {"fcm_options": {"analytics_label": "bad label"}}}"#, "message.apns.fcm_options.analytics_label"),
        ])
    }

    func testAndroidBlock() {
        assertCases([
            (#"{"topic": "a", "android": {"ttl": "0s"}}"#, nil),
            (#"{"topic": "a", "android": {"ttl": "2419200s"}}"#, nil),
            (#"{"topic": "a", "android": {"ttl": "2419199.999999999s"}}"#, nil),
            (#"{"topic": "a", "android": {"ttl": "2419200.000000001s"}}"#, "message.android.ttl"),
            (#"{"topic": "a", "android": {"ttl": "2419201s"}}"#, "message.android.ttl"),
            (#"{"topic": "a", "android": {"ttl": "-1s"}}"#, "message.android.ttl"),
            (#"{"topic": "a", "android": {"ttl": "-0.5s"}}"#, "message.android.ttl"),
            (##"{"topic": "a", "android": {"notification": {"color": "#a1B2c3"}}}"##, nil),
            (##"{"topic": "a", "android": {"notification": {"color": "#a1B2c"}}}"##, "message.android.notification.color"),
            (#"{"topic": "a", "android": {"notification": {"color": "a1B2c3d"}}}"#, "message.android.notification.color"),
            (##"{"topic": "a", "android": {"notification": {"color": "#a1B2cg"}}}"##, "message.android.notification.color"),
            (##"{"topic": "a", "android": {"notification": {"color": "#aabbccdd"}}}"##, "message.android.notification.color"),
            (#"{"topic": "a", "android": {"notification": {"notification_count": 0}}}"#, nil),
            (#"{"topic": "a", "android": {"notification": {"notification_count": -1}}}"#, "message.android.notification.notification_count"),
            (#"{"topic": "a", "android": {"notification": {"body_loc_args": ["x"]}}}"#, "message.android.notification.body_loc_key"),
            (#"{"topic": "a", "android": {"notification": {"title_loc_args": ["x"]}}}"#, "message.android.notification.title_loc_key"),
            (#"{"topic": "a", "android": {"notification": {"title_loc_args": ["x"], "title_loc_key": "k"}}}"#, nil),
            (#"{"topic": "a", "android": {"notification": {"body_loc_args": []}}}"#, nil),
            (#"{"topic": "a", "android": {"notification": {"vibrate_timings": ["0.1s", "-0.1s"]}}}"#, "message.android.notification.vibrate_timings[1]"),
            (#"{"topic": "a", "android": {"notification": {"light_settings": {"color": {"red": 1}, "light_on_duration": "1s"}}}}"#,
             "message.android.notification.light_settings.light_off_duration"),
            (#"{"topic": "a", "android": {"notification": {"light_settings": {"light_on_duration": "1s", "light_off_duration": "1s"}}}}"#,
             "message.android.notification.light_settings.color"),
            (#"{"topic": "a", "android": {"notification": {"light_settings": {"color": {}, "light_on_duration": "-1s", "light_off_duration": "1s"}}}}"#,
             "message.android.notification.light_settings.light_on_duration"),
            (#"{"topic": "a", "android": {"fcm_options": {"analytics_label": ""}}}"#, "message.android.fcm_options.analytics_label"),
            (#"{"topic": "a", "android": {"priority": "normal", "notification": {"visibility": "SECRET", "proxy": "deny", "notification_priority": "priority_min"}}}"#, nil),
        ])
    }

    func testWebpushBlock() {
        assertCases([
            (#"{"topic": "a", "webpush": {"fcm_options": {"link": "https://example.com"}}}"#, nil),
            (#"{"topic": "a", "webpush": {"fcm_options": {"link": "http://example.com"}}}"#, "message.webpush.fcm_options.link"),
            (#"{"topic": "a", "webpush": {"fcm_options": {"link": "HTTPS://example.com"}}}"#, "message.webpush.fcm_options.link"),
            (#"{"topic": "a", "webpush": {"fcm_options": {"analytics_label": "x y"}}}"#, "message.webpush.fcm_options.analytics_label"),
            (#"{"topic": "a", "webpush": {"notification": {"any": [1, {"thing": true}]}, "headers": {"TTL": "60"}}}"#, nil),
        ])
    }

    func testAnalyticsLabels() {
        let labels: [(String, Bool)] = [
            ("a", true), (String(repeating: "a", count: 50), true), ("spring-sale_2026.v~1%", true),
            ("", false), (String(repeating: "a", count: 51), false), ("spring sale", false), ("ünï", false), ("a/b", false),
        ]
        for (label, valid) in labels {
            let error = check(#"{"topic": "a", "fcm_options": {"analytics_label": "\#(label)"}}"#)
            XCTAssertEqual(error == nil, valid, label)
            if !valid { XCTAssertEqual(error?.fieldViolations.first?.field, "message.fcm_options.analytics_label") }
        }
    }
}
