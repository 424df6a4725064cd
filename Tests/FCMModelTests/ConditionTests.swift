import FCMModel
import XCTest

/// Topic conditions (fcm-rules §3.5): the grammar, its limits, and which devices a condition reaches.
final class ConditionTests: XCTestCase {
    func testEvaluation() throws {
        // (condition, subscribed topics, reached)
        let cases: [(String, Set<String>, Bool)] = [
            ("'a' in topics", ["a"], true),
            ("'a' in topics", ["b"], false),
            ("'a' in topics", [], false),
            ("!('a' in topics)", [], true),
            ("!'a' in topics", ["a"], false),
            ("'a' in topics && 'b' in topics", ["a", "b"], true),
            ("'a' in topics && 'b' in topics", ["a"], false),
            ("'a' in topics || 'b' in topics", ["b"], true),
            ("'a' in topics || 'b' in topics", ["c"], false),
            ("'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)", ["TopicA", "TopicC"], true),
            ("'TopicA' in topics && ('TopicB' in topics || 'TopicC' in topics)", ["TopicB", "TopicC"], false),
            ("'a' in topics && ('b' in topics || !('c' in topics))", ["a"], true),
            ("'a' in topics && ('b' in topics || !('c' in topics))", ["a", "c"], false),
            ("'a' in topics && ('b' in topics || !('c' in topics))", ["a", "b", "c"], true),
            // && binds tighter than || (fcm-rules §3.5): a || (b && c).
            ("'a' in topics || 'b' in topics && 'c' in topics", ["a"], true),
            ("'a' in topics || 'b' in topics && 'c' in topics", ["b"], false),
            ("'a' in topics && 'b' in topics || 'c' in topics", ["c"], true),
            ("\"dogs\" in topics || \"cats\" in topics", ["cats"], true),
            ("  ( 'a'  in   topics )\t&&\n'b' in topics ", ["a", "b"], true),
            ("(((('a' in topics))))", ["a"], true),
            ("!!('a' in topics)", ["a"], true),
        ]
        for (text, topics, reached) in cases {
            let condition = try FCMCondition.parse(text)
            XCTAssertEqual(condition.matches(subscribedTopics: topics), reached, "\(text) with \(topics.sorted())")
            XCTAssertEqual(condition.text, text)
        }
    }

    func testTopicsAreListedOnceInOrder() throws {
        XCTAssertEqual(try FCMCondition.parse("'b' in topics && ('a' in topics || !'b' in topics)").topics, ["b", "a"])
    }

    func testRefusals() {
        let cases: [(String, String)] = [
            ("", "ends too early"),
            ("'a' in topics &&", "ends too early"),
            ("'a' in topics ||| 'b' in topics", "expected a quoted topic name"),
            ("('a' in topics", "expected ')'"),
            ("'a' in topics)", "unexpected text"),
            ("'a' topics", "expected 'in topics'"),
            ("'a' in topic", "expected 'in topics'"),
            ("'a' intopics", "expected 'in topics'"),
            ("'a' in topicsx", "expected 'in topics'"),
            ("a in topics", "expected a quoted topic name"),
            ("'a\" in topics", "a topic name is"),
            ("'a in topics", "a topic name is"),
            ("'' in topics", "empty topic name"),
            ("'a b' in topics", "a topic name is"),
            ("'a' in topics & 'b' in topics", "unexpected text"),
            ("'a' in topics || 'b' in topics || 'c' in topics || 'd' in topics || 'e' in topics || 'f' in topics", "at most 5"),
            ("'a' in topics || 'a' in topics || 'a' in topics || 'a' in topics || 'a' in topics || 'a' in topics", "names 6 topics"),
            (String(repeating: "(", count: 40) + "'a' in topics" + String(repeating: ")", count: 40), "nest deeper"),
            (String(repeating: "!", count: 40) + "'a' in topics", "nest deeper"),
            (String(repeating: "(", count: 100_000), "nest deeper"),
        ]
        for (text, reason) in cases {
            do {
                _ = try FCMCondition.parse(text)
                XCTFail("accepted \(text)")
            } catch {
                XCTAssert(error.message.contains(reason), "\(text.prefix(60)): \(error.message)")
                XCTAssertEqual(error.errorCode, .invalidArgument)
                XCTAssertEqual(error.fieldViolations.first?.field, "message.condition")
            }
        }
        XCTAssertNoThrow(try FCMCondition.parse("'a' in topics || 'b' in topics || 'c' in topics || 'd' in topics || 'e' in topics"))
        XCTAssertThrowsError(try FCMCondition.parse("'a' in topics || 'b' in topics", maximumTopics: 1))
    }
}
