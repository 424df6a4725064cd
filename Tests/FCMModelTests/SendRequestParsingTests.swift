import FCMModel
import JSON
import XCTest

/// The JSON front end (fcm-rules §3.1): what is refused, with which field and wording, and the normal form of what
/// is accepted.
final class SendRequestParsingTests: XCTestCase {
    private let token = FCMFixture.registration.token

    private func parse(_ body: String) throws(FCMError) -> FCMSendRequest {
        try FCMSendRequest.parse(Array(body.utf8))
    }

    private func error(_ body: String, file: StaticString = #filePath, line: UInt = #line) -> FCMError? {
        do {
            _ = try parse(body)
            XCTFail("accepted: \(body)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testFrontEndRefusals() {
        // (body, field of a violation or nil for the request as a whole, text the message contains)
        let cases: [(String, String?, String)] = [
            (#"{"message": {"topic": "a",}}"#, nil, "Invalid JSON payload received."),
            ("", nil, "Invalid JSON payload received."),
            (#"[1]"#, nil, #"Unknown name "": Root element must be a message."#),
            (#""message""#, nil, "Root element must be a message."),
            (#"{"message": {"topic": "a", "priority": "high"}}"#, "message", #"Unknown name "priority" at 'message': Cannot find field."#),
            (#"{"mesage": {"topic": "a"}}"#, nil, #"Unknown name "mesage": Cannot find field."#),
            (#"{"message": {"topic": "a", "apns": {"payload": {}, "header": {}}}}"#, "message.apns", #"Unknown name "header" at 'message.apns'"#),
            (#"{"message": {"topic": "a", "data": {"n": 12}}}"#, "message.data[0].value", "Invalid value at 'message.data[0].value' (TYPE_STRING), 12"),
            (#"{"message": {"topic": "a", "data": {"ok": "1", "b": true}}}"#, "message.data[1].value", "(TYPE_STRING), true"),
            (#"{"message": {"topic": "a", "data": {"n": null}}}"#, "message.data[0].value", "(TYPE_STRING), null"),
            (#"{"message": {"topic": "a", "data": "x"}}"#, "message.data", "google.firebase.fcm.v1.Message.DataEntry"),
            (#"{"message": {"topic": "a", "data": {"k": "1", "k": "2"}}}"#, "message.data", #"Duplicate map key "k""#),
            (#"{"validate_only": 1, "message": {"topic": "a"}}"#, "validate_only", "(TYPE_BOOL), 1"),
            (#"{"message": {"topic": 7}}"#, "message.topic", "(TYPE_STRING), 7"),
            (#"{"message": []}"#, nil, #"Unknown name "message": Proto field is not repeating, cannot start list."#),
            (#"{"message": {"topic": "a", "notification": "hi"}}"#, "message.notification", "google.firebase.fcm.v1.Notification"),
            (#"{"message": {"topic": "a", "token": "\#(token)"}}"#, "message", "oneof field 'target' is already set. Cannot set 'token'"),
            (#"{"message": {"condition": "'a' in topics", "fid": "x"}}"#, "message", "Cannot set 'fid'"),
            (#"{"message": {"topic": "a", "fcm_options": {}, "fcmOptions": {}}}"#, "message", #"Duplicate field "fcmOptions""#),
            (#"{"message": {"topic": "a", "android": {"priority": "URGENT"}}}"#, "message.android.priority",
             "(type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), \"URGENT\""),
            (#"{"message": {"topic": "a", "android": {"priority": 2}}}"#, "message.android.priority", "AndroidMessagePriority"),
            (#"{"message": {"topic": "a", "android": {"ttl": "10"}}}"#, "message.android.ttl", "google.protobuf.Duration"),
            (#"{"message": {"topic": "a", "android": {"notification": {"event_time": "yesterday"}}}}"#,
             "message.android.notification.event_time", "google.protobuf.Timestamp"),
            (#"{"message": {"topic": "a", "android": {"notification": {"notification_count": 1.5}}}}"#,
             "message.android.notification.notification_count", "(TYPE_INT32), 1.5"),
            (#"{"message": {"topic": "a", "android": {"notification": {"notification_count": 3000000000}}}}"#,
             "message.android.notification.notification_count", "(TYPE_INT32)"),
            (#"{"message": {"topic": "a", "android": {"notification": {"body_loc_args": "x"}}}}"#,
             "message.android.notification.body_loc_args", "(TYPE_STRING), \"x\""),
            (#"{"message": {"topic": "a", "android": {"notification": {"body_loc_args": ["x", 2]}}}}"#,
             "message.android.notification.body_loc_args[1]", "(TYPE_STRING), 2"),
            (#"{"message": {"topic": "a", "android": {"notification": {"vibrate_timings": ["1s", "fast"]}}}}"#,
             "message.android.notification.vibrate_timings[1]", "google.protobuf.Duration"),
            (#"{"message": {"topic": "a", "android": {"notification": {"light_settings": {"color": {"red": "lots"}}}}}}"#,
             "message.android.notification.light_settings.color.red", "(TYPE_FLOAT)"),
            (#"{"message": {"topic": "a", "apns": {"payload": [1]}}}"#, "message.apns", "Proto field is not repeating"),
            (#"{"message": {"topic": "a", "apns": {"headers": {"apns-priority": 10}}}}"#, "message.apns.headers[0].value", "(TYPE_STRING), 10"),
            (#"{"message": {"topic": "a", "webpush": {"notification": "x"}}}"#, "message.webpush.notification", "google.protobuf.Struct"),
        ]
        for (body, field, text) in cases {
            guard let error = error(body) else { continue }
            XCTAssertEqual(error.httpStatus, 400, body)
            XCTAssertEqual(error.status, .invalidArgument, body)
            XCTAssertNil(error.errorCode, "the front end sends a BadRequest only: \(body)")
            XCTAssert(error.message.contains(text), "\(body): \(error.message)")
            if let field {
                XCTAssert(error.fieldViolations.contains { $0.field == field }, "\(body): \(error.fieldViolations)")
            } else {
                XCTAssert(error.fieldViolations.contains { $0.field == nil }, "\(body): \(error.fieldViolations)")
            }
        }
    }

    func testEveryProblemIsReportedAtOnceUpToACap() {
        let twoProblems = error(#"{"message": {"topic": "a", "x": 1, "data": {"n": 1}}}"#)
        XCTAssertEqual(twoProblems?.fieldViolations.count, 2)
        XCTAssertEqual(twoProblems?.message.split(separator: "\n").count, 2, "descriptions joined by newlines")
        let many = "{" + (0..<500).map { #""x\#($0)": 1"# }.joined(separator: ", ") + "}"
        XCTAssertEqual(error(many)?.fieldViolations.count, 50)
    }

    func testSnakeAndCamelSpellingsReadAlike() throws {
        let snake = #"{"validate_only": true, "message": {"topic": "a", "fcm_options": {"analytics_label": "l"}, "apns": {"live_activity_token": "ab", "fcm_options": {"image": "https://x"}}, "android": {"collapse_key": "c", "restricted_package_name": "p", "direct_boot_ok": true, "notification": {"click_action": "open", "channel_id": "ch", "notification_count": 2}}}}"#
        let camel = #"{"validateOnly": true, "message": {"topic": "a", "fcmOptions": {"analyticsLabel": "l"}, "apns": {"liveActivityToken": "ab", "fcmOptions": {"image": "https://x"}}, "android": {"collapseKey": "c", "restrictedPackageName": "p", "directBootOk": true, "notification": {"clickAction": "open", "channelId": "ch", "notificationCount": 2}}}}"#
        let a = try parse(snake), b = try parse(camel)
        XCTAssertEqual(a.message, b.message)
        XCTAssertTrue(b.validateOnly)
        XCTAssertEqual(b.message.analyticsLabel, "l")
        XCTAssertEqual(b.message.apns?.liveActivityToken, "ab")
        XCTAssertEqual(b.message.android?.notification?.channelID, "ch")
        XCTAssertEqual(b.message.android?.notification?.notificationCount, 2)
        XCTAssertEqual(b.message.json["android"]?["collapse_key"], .string("c"), "the normal form uses proto names")
        XCTAssertNotEqual(a.rawMessage, b.rawMessage, "the raw message keeps the sender's spelling")
    }

    func testNormalForm() throws {
        let request = try parse(#"{"message": {"topic": "a", "notification": null, "android": {"priority": "high", "ttl": "3.5s", "notification": {"notification_priority": 4, "visibility": "public", "notification_count": "3"}}, "apns": {"payload": {"aps": {"badge": 1}, "k": 1, "k": 2}}}}"#)
        let message = request.message
        XCTAssertFalse(request.validateOnly)
        XCTAssertNil(message.notification, "null is absent")
        XCTAssertNil(message.json["notification"])
        XCTAssertEqual(message.android?.priority, .high, "enum names in any case")
        XCTAssertEqual(message.json["android"]?["priority"], .string("HIGH"))
        XCTAssertEqual(message.android?.ttlSeconds, 3, "rounded down to the second")
        XCTAssertEqual(message.android?.notification?.notificationPriority, .high, "enum number 4")
        XCTAssertEqual(message.android?.notification?.visibility, .public)
        XCTAssertEqual(message.android?.notification?.notificationCount, 3, "int32 from a string")
        XCTAssertEqual(message.apns?.payload?.objectKeys, ["aps", "k"], "a Struct's repeated key is kept once")
        XCTAssertEqual(message.apns?.payload?["k"], .integer(2), "with its last value")
        XCTAssertEqual(request.rawMessage["notification"], .null, "the raw message as sent")
    }

    func testNameIsOutputOnlyButAccepted() throws {
        XCTAssertEqual(try parse(#"{"message": {"name": "projects/p/messages/1", "topic": "a"}}"#).message.target, .topic("a"))
    }

    func testDeepNestingIsRefusedWithoutCrashing() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        XCTAssertEqual(error(#"{"message": {"topic": "a", "apns": {"payload": {"x": \#(deep)}}}}"#)?.httpStatus, 400)
    }
}
