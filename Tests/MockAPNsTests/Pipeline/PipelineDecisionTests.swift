import APNsModel
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The fault stage as a pure step on a decision: the rules that fired, in order, and nothing else.
final class PipelineDecisionTests: LeakCheckedTestCase {
    /// A device push the model accepted, before any later stage.
    private func accepted() -> PipelineDecision {
        var decision = PipelineDecision()
        decision.accept(AcceptedPush(route: .device(token: "ab"), deviceToken: "ab", topic: "com.example.app",
                                     pushType: .alert, payload: .object([])))
        return decision
    }

    func testDelaysAddUpAndTheFirstStatusWins() {
        var decision = accepted()
        decision.apply(fired: [
            FaultRule(action: .delay(milliseconds: 40)),
            FaultRule(name: "gone", action: .status(410, reason: "Unregistered")),
            FaultRule(action: .status(429, reason: "TooManyRequests")),
            FaultRule(action: .delay(milliseconds: 2)),
        ], nowMillis: 1_700_000_000_123)
        XCTAssertEqual(decision.status, 410)
        XCTAssertEqual(decision.reasonText, "Unregistered")
        XCTAssertEqual(decision.timestamp, 1_700_000_000_123, "a 410 carries the time it was decided")
        XCTAssertEqual(decision.delay, .milliseconds(42))
        XCTAssertEqual(decision.firedFaults, ["delay", "gone", "status", "delay"])
        XCTAssertEqual(decision.disposition, .respond)
        XCTAssertFalse(decision.stillDecided, "a fault answered: devices and channels are not asked")
    }

    func testTheFirstBreakingFaultWinsAndAStatusAfterItIsIgnored() {
        var decision = accepted()
        decision.apply(fired: [
            FaultRule(action: .goAway(reason: "Shutdown", errorCode: 0)),
            FaultRule(action: .drop),
            FaultRule(action: .status(500, reason: "InternalServerError")),
        ], nowMillis: 0)
        XCTAssertEqual(decision.disposition, .closeConnection(errorCode: 0, reasonBody: Array(#"{"reason":"Shutdown"}"#.utf8)))
        XCTAssertEqual(decision.status, 503, "GOAWAY Shutdown is recorded as APNs's 503")
        XCTAssertEqual(decision.reasonText, "Shutdown")
        XCTAssertNil(decision.timestamp)
    }

    func testAStallKeepsTheModelsStatusButStopsTheLaterStages() {
        var decision = accepted()
        decision.apply(fired: [FaultRule(action: .stall), FaultRule(action: .reset(errorCode: 2))], nowMillis: 0)
        XCTAssertEqual(decision.disposition, .stall)
        XCTAssertEqual(decision.status, 200)
        XCTAssertFalse(decision.stillDecided)
    }

    func testNoRuleLeavesTheDecisionToTheLaterStages() {
        var decision = accepted()
        decision.apply(fired: [FaultRule(action: .delay(milliseconds: 5))], nowMillis: 0)
        XCTAssertTrue(decision.stillDecided, "a delay alone does not answer")
        XCTAssertEqual(decision.status, 200)
    }

    func testARefusedChannelAnswerRejectsAndAnAcceptedOneCarriesItsHeaderAndBody() {
        var refused = accepted()
        refused.apply(ChannelManagementHandler.Answer.refused(.channelNotRegistered))
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(refused.reasonText, "ChannelNotRegistered")

        var created = accepted()
        created.apply(ChannelManagementHandler.Answer(status: 201, headers: [HeaderField(name: "apns-channel-id", value: "abc")]))
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.extraHeaders.map(\.value), ["abc"])
        XCTAssertNil(created.reasonText)
    }

    func testAnUnrecordableSuccessBecomesA500WithoutItsHeadersOrBody() {
        var decision = accepted()
        decision.apply(ChannelManagementHandler.Answer(status: 201, headers: [HeaderField(name: "apns-channel-id", value: "abc")],
                                                       body: [1, 2]))
        decision.refuseUnrecordable()
        XCTAssertEqual(decision.status, 500)
        XCTAssertEqual(decision.reasonText, "InternalServerError")
        XCTAssertTrue(decision.extraHeaders.isEmpty)
        XCTAssertNil(decision.body)
    }
}
