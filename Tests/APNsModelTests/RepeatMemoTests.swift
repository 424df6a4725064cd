import APNsModel
import TestSupport
import XCTest

/// `RepeatMemo` lets a server apply the header-only rules once per header list and parse a repeated body once.
/// It must never change a verdict: whatever request, credential or body came before with the same header list, the
/// answer is the one the decider gives without a memo.
final class RepeatMemoTests: XCTestCase {
    func testMemoNeverChangesAVerdictAcrossTheCorpus() throws {
        let now = TestCredentials.now
        let cases = try ConformanceCase.all().map { try ConformanceCase(url: $0) }.filter { $0.history.isEmpty }
        XCTAssertGreaterThan(cases.count, 100)
        let requests = try cases.map { try $0.makeRequest($0.request, auth: $0.auth) }
        let contexts = try cases.map {
            DecisionContext(environment: $0.environment, credential: try ConformanceCase.credential($0.auth, now: now),
                            now: now, environmentKeyReason: $0.environmentKeyReason)
        }
        var differences: [String] = []
        var reused = 0
        for i in cases.indices {
            var plain = TokenConnectionState()
            let expected = RequestDecider.decide(requests[i], context: contexts[i], connection: &plain)
            // Prime the memo with case i's very header array, under every other case's route, body and credential.
            for j in cases.indices {
                var memo = RepeatMemo()
                var primerConnection = TokenConnectionState()
                let primer = APNsRequest(method: requests[j].method, path: requests[j].path, headers: requests[i].headers,
                                         body: requests[j].body)
                _ = RequestDecider.decide(primer, context: contexts[j], connection: &primerConnection, memo: &memo)
                var connection = TokenConnectionState()
                let verdict = RequestDecider.decide(requests[i], context: contexts[i], connection: &connection, memo: &memo)
                if verdict != expected {
                    differences.append("\(cases[i].file) after \(cases[j].file): \(verdict.status) \(verdict.reason?.rawValue ?? "-"), "
                                       + "without memo \(expected.status) \(expected.reason?.rawValue ?? "-")")
                }
                if contexts[i].credential == contexts[j].credential, expected.accepted != nil { reused += 1 }
            }
        }
        XCTAssertTrue(differences.isEmpty, "\(differences.count) verdicts changed:\n" + differences.prefix(20).joined(separator: "\n"))
        XCTAssertGreaterThan(reused, 1000, "the corpus should exercise reuse under an equal credential")
    }

    /// Equal contents in another array are decided afresh: only the same storage is trusted.
    func testOnlyTheSameArrayIsRemembered() {
        let context = DecisionContext(environment: .development, credential: TestCredentials.tokenCredential(),
                                      now: TestCredentials.now)
        var memo = RepeatMemo()
        var connection = TokenConnectionState()
        let good = Requests.device([("apns-topic", "com.example.app"), ("apns-push-type", "alert")])
        XCTAssertNotNil(RequestDecider.decide(good, context: context, connection: &connection, memo: &memo).accepted)
        // Same array, a body too large for the push type: the body rules still run.
        var large = good
        large.body = Array(repeating: UInt8(ascii: "x"), count: 4097)
        XCTAssertEqual(RequestDecider.decide(large, context: context, connection: &connection, memo: &memo).reason,
                       .payloadTooLarge)
        // Another array with a bad priority after a good list: decided on its own.
        let bad = Requests.device([("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("apns-priority", "7")])
        XCTAssertEqual(RequestDecider.decide(bad, context: context, connection: &connection, memo: &memo).reason, .badPriority)
    }
}
