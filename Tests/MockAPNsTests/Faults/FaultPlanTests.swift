import APNsModel
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

final class FaultPlanTests: LeakCheckedTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    func testCountLimitsFirings() throws {
        let plan = FaultPlan()
        plan.add(FaultRule(topic: "com.example.app", count: 2, action: .status(503, reason: "ServiceUnavailable")))
        let fired = (0..<4).map { _ in plan.fire(token: "aa", topic: "com.example.app", pushType: "alert", path: "/3/device/aa").fired.count }
        XCTAssertEqual(fired, [1, 1, 0, 0])
        XCTAssertEqual(plan.entries.first?.fired, 2)
    }

    func testMatchFieldsMustAllHold() {
        let plan = FaultPlan()
        plan.add(FaultRule(token: "AABB", pushType: "voip", pathPrefix: "/3/device/", action: .drop))
        XCTAssertEqual(plan.fire(token: "aabb", topic: nil, pushType: "voip", path: "/3/device/aabb").fired.count, 1)
        XCTAssertEqual(plan.fire(token: "aabb", topic: nil, pushType: "alert", path: "/3/device/aabb").fired.count, 0)
        XCTAssertEqual(plan.fire(token: "ccdd", topic: nil, pushType: "voip", path: "/3/device/ccdd").fired.count, 0)
    }

    func testFCMRulesFireOnlyAtTheFrontDoorAndAPNsRulesNeverThere() {
        let plan = FaultPlan()
        plan.add(FaultRule(project: "p", count: 1, action: .fcmError(status: "UNAVAILABLE")))
        plan.add(FaultRule(action: .status(503, reason: "ServiceUnavailable")))
        XCTAssertEqual(plan.fire(token: "aa", topic: nil, pushType: nil, path: "/3/device/aa").fired.map(\.action),
                       [.status(503, reason: "ServiceUnavailable")])
        XCTAssertEqual(plan.fireFCM(project: "other", registrationToken: nil), [])
        XCTAssertEqual(plan.fireFCM(project: "p", registrationToken: "t").map(\.action), [.fcmError(status: "UNAVAILABLE")])
        XCTAssertEqual(plan.fireFCM(project: "p", registrationToken: "t"), [], "count 1")
    }

    func testProbabilityIsReproducibleForASeed() {
        func run(seed: UInt64) -> [Bool] {
            let plan = FaultPlan(seed: seed)
            plan.add(FaultRule(probability: 0.5, action: .stall))
            return (0..<200).map { _ in !plan.fire(token: nil, topic: nil, pushType: nil, path: "/").fired.isEmpty }
        }
        let a = run(seed: 42), b = run(seed: 42), c = run(seed: 43)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
        let hits = a.filter { $0 }.count
        XCTAssertTrue((60...140).contains(hits), "0.5 probability fired \(hits)/200")
    }

    func testRulesRoundTripThroughJSON() throws {
        let text = """
            {"name":"slow","match":{"token":"aa","topic":"t","push_type":"alert","path":"/3/"},"count":3,"probability":0.25,
             "action":{"type":"goaway","reason":"Shutdown","error_code":0}}
            """
        let rule = try FaultRule(json: try parse(text))
        XCTAssertEqual(rule.name, "slow")
        XCTAssertEqual(rule.action, .goAway(reason: "Shutdown", errorCode: 0))
        XCTAssertEqual(try FaultRule(json: rule.jsonValue()), rule)
        let fcm = try FaultRule(json: try parse(#"{"match":{"project":"p","registration_token":"t"},"action":{"type":"fcm_error","status":"INTERNAL"}}"#))
        XCTAssertEqual(fcm.project, "p")
        XCTAssertEqual(fcm.registrationToken, "t")
        XCTAssertEqual(try FaultRule(json: fcm.jsonValue()), fcm)
        for action in [FaultAction.status(410, reason: "Unregistered"), .delay(milliseconds: 5), .stall, .reset(errorCode: 8), .drop,
                       .fcmError(status: "QUOTA_EXCEEDED")] {
            XCTAssertEqual(try FaultAction(json: action.jsonValue()), action)
        }
    }

    func testBadRulesSayWhatIsWrong() throws {
        let cases: [(String, String)] = [
            (#"{"match":{}}"#, "needs an \"action\""),
            (#"{"action":{"type":"explode"}}"#, "unknown action type"),
            (#"{"action":{"type":"status","status":999}}"#, "100 to 599"),
            (#"{"action":{"type":"stall"},"probability":2}"#, "between 0 and 1"),
            (#"{"action":{"type":"delay"}}"#, "needs \"ms\""),
            (#"{"action":{"type":"fcm_error","status":"NOT_FOUND"}}"#, "UNAVAILABLE, INTERNAL, QUOTA_EXCEEDED"),
            (#"{"match":{"token":"aa"},"action":{"type":"fcm_error","status":"INTERNAL"}}"#, "not \"token\""),
            (#"{"match":{"project":"p"},"action":{"type":"status","status":503}}"#, "only an \"fcm_error\" action"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try FaultRule(json: try parse(text)), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) should mention \(expected)")
            }
        }
    }
}
