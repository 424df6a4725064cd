import XCTest

@testable import APNsModel
@testable import DeviceSimulation

final class PayloadLinterTests: XCTestCase {
    func testEveryRuleFiresOnItsPositiveCase() {
        for c in LintCases.positive {
            let findings = c.findings()
            let hit = findings.first { $0.id == c.rule.rawValue }
            XCTAssertNotNil(hit, "\(c.rule.rawValue) did not fire on \(c.payload); got \(findings.map(\.id))")
            XCTAssertEqual(hit?.severity, c.rule.severity, c.rule.rawValue)
        }
    }

    func testNoRuleFiresOnItsNegativeCase() {
        for c in LintCases.negative {
            let ids = c.findings().map(\.id)
            XCTAssertFalse(ids.contains(c.rule.rawValue), "\(c.rule.rawValue) fired on \(c.payload)")
        }
    }

    func testEveryRuleHasAPositiveAndANegativeCase() {
        let positive = Set(LintCases.positive.map(\.rule))
        let negative = Set(LintCases.negative.map(\.rule))
        for rule in LintRule.allCases {
            XCTAssertTrue(positive.contains(rule), "no positive case for \(rule.rawValue)")
            XCTAssertTrue(negative.contains(rule), "no negative case for \(rule.rawValue)")
        }
    }

    func testIDsAreKebabCaseAndUnique() {
        let ids = LintRule.allCases.map(\.rawValue)
        XCTAssertEqual(Set(ids).count, ids.count)
        for id in ids {
            XCTAssertTrue(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, id)
            XCTAssertFalse(id.hasPrefix("-") || id.hasSuffix("-") || id.contains("--"), id)
        }
    }

    func testCleanPayloadsHaveNoFindings() {
        let clean: [LintCase] = [
            LintCase(
                rule: .payloadNotObject,
                payload: ##"{"aps": {"alert": {"title": "New Message", "subtitle": "From Alice", "body": "Lunch?"}, "badge": 3, "sound": "default", "thread-id": "chat", "category": "MESSAGE"}, "messageId": "m"}"##,
                pushType: .alert, priority: .immediate, topic: "com.example.app"),
            LintCase(
                rule: .payloadNotObject, payload: ##"{"aps": {"content-available": 1}, "updateType": "new-data"}"##,
                pushType: .background, priority: .considerPower, topic: "com.example.app"),
            LintCase(
                rule: .payloadNotObject, payload: ##"{"aps": {"content-changed": true}}"##, pushType: .widgets,
                topic: "com.example.app.push-type.widgets"),
        ]
        for c in clean { XCTAssertEqual(c.findings(), [], c.payload) }
    }

    func testMisspeltKeysGetTheClosestKnownKey() {
        let cases: [(String, String, String)] = [
            (##"{"aps": {"alert": {"titel": "t"}}}"##, "aps.alert.titel", "\"title\""),
            (##"{"aps": {"alert": {"Body": "b"}}}"##, "aps.alert.Body", "\"body\""),
            (##"{"aps": {"alert": "a", "content_available": 1}}"##, "aps.content_available", "\"content-available\""),
            (##"{"aps": {"alert": "a", "threadId": "x"}}"##, "aps.threadId", "\"thread-id\""),
            (##"{"aps": {"alert": "a", "mutable-contnet": 1}}"##, "aps.mutable-contnet", "\"mutable-content\""),
        ]
        for (payload, path, suggestion) in cases {
            let finding = PayloadLinter.lint(
                payload: json(payload), pushType: nil, priority: nil, topic: nil, payloadBytes: 10
            ).first { $0.path == path }
            XCTAssertNotNil(finding, payload)
            XCTAssertTrue(finding?.message.contains("did you mean \(suggestion)") ?? false, finding?.message ?? payload)
        }
    }

    func testCustomKeyInsideApsPointsBesideAps() {
        let findings = PayloadLinter.lint(
            payload: json(##"{"aps": {"alert": "a", "orderId": "42"}}"##), pushType: nil, priority: nil, topic: nil,
            payloadBytes: 10)
        XCTAssertEqual(findings.map(\.path), ["aps.orderId"])
        XCTAssertTrue(findings[0].message.contains("beside aps"), findings[0].message)
    }

    func testPathsNameWhereTheProblemIs() {
        let findings = PayloadLinter.lint(
            payload: json(
                ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "custom": {"i": "x", "a": {"inAppSymbol": "s", "inAppColor": "blue"}}}"##
            ), pushType: nil, priority: nil, topic: nil, payloadBytes: 10)
        XCTAssertEqual(findings.map(\.path), ["custom.a.inAppColor"])
    }

    func testPushTypeIsReadFromTheTopicSuffix() {
        let findings = PayloadLinter.lint(
            payload: json(##"{"aps": {}}"##), pushType: nil, priority: nil, topic: "com.example.app.push-type.widgets",
            payloadBytes: 10)
        XCTAssertEqual(findings.map(\.id), ["content-changed-missing"])
    }

    func testRequestOverloadReadsTheHeaders() {
        let request = APNsRequest(
            method: "POST", path: "/3/device/00",
            headers: [
                HeaderField("apns-push-type", "alert"), HeaderField("apns-priority", "10"),
                HeaderField("apns-topic", "com.example.app"),
            ],
            body: Array(##"{"aps": {"content-available": 1}}"##.utf8))
        XCTAssertEqual(
            PayloadLinter.lint(request: request).map(\.id), ["silent-push-type-mismatch", "background-priority-10"])
        let bare = APNsRequest(method: "POST", path: "/3/device/00", body: Array(##"{"aps": {"content-available": 1}}"##.utf8))
        XCTAssertEqual(
            PayloadLinter.lint(request: bare).map(\.id), ["silent-push-type-missing", "background-priority-missing"])
    }

    func testFindingsEncodeWithTheirFourFields() throws {
        let finding = LintFinding(.badgeNotInteger, message: "m", path: "aps.badge")
        let data = try JSONEncoder().encode(finding)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: String]
        XCTAssertEqual(
            object, ["id": "badge-not-integer", "severity": "error", "message": "m", "path": "aps.badge"])
    }
}
