import APNsModel
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// `--key-file TEAMID:KEYID:PATH[:environment][:topic,topic…]` and `keys.json`: environment-bound team keys and
/// topic-specific keys.
final class TrustedKeyStoreTests: LeakCheckedTestCase {
    private let path = RepoPaths.cert("AuthKey_TESTKEY001.p8")

    private func key(_ argument: String) throws -> TrustedKey? {
        var store = TrustedKeyStore()
        try store.add(keyFileArgument: argument)
        return store.entry(keyID: "KEY1234567")?.key
    }

    func testKeyFileArgumentForms() throws {
        let team = "TEAM123456:KEY1234567:\(path)"
        let both: Set<APNsEnvironment> = [.development, .production]
        XCTAssertEqual(try key(team)?.environments, both)
        XCTAssertNil(try key(team)?.topics, "a team-scoped key covers every topic")
        XCTAssertEqual(try key(team + ":production")?.environments, [.production])
        XCTAssertNil(try key(team + ":production")?.topics)
        XCTAssertEqual(try key(team + ":com.example.app")?.topics, ["com.example.app"], "a fourth part that is no environment is a topic list")
        XCTAssertEqual(try key(team + ":com.example.app")?.environments, both)
        XCTAssertEqual(try key(team + ":development:com.a,com.b")?.topics, ["com.a", "com.b"])
        XCTAssertEqual(try key(team + ":development:com.a,com.b")?.environments, [.development])
        XCTAssertEqual(try key(team + "::com.a")?.environments, both, "an empty environment is both")
    }

    func testBadKeyFileArgumentsAreClearErrors() {
        for bad in ["TEAM123456:KEY1234567", "TEAM123456:KEY1234567:\(path):development:", "TEAM123456:KEY1234567:\(path):staging:com.a",
                    "TEAM123456:KEY1234567:\(path):development:com.a, bad topic", "a:b:c:d:e:f"] {
            XCTAssertThrowsError(try key(bad), bad) { error in
                guard case ConfigurationError.invalidKey = error else { return XCTFail("\(bad): \(error)") }
            }
        }
    }

    func testKeysJSONTopicsMakeATopicSpecificKey() throws {
        var store = TrustedKeyStore()
        try store.add(keysJSONAt: RepoPaths.cert("keys.json"))
        let topicKey = try XCTUnwrap(store.entry(keyID: "TOPICKEY01")?.key)
        XCTAssertEqual(topicKey.topics, ["com.example.app"])
        XCTAssertTrue(topicKey.covers(topic: "com.example.app.voip"), "the app's suffixed topics come with it")
        XCTAssertFalse(topicKey.covers(topic: "com.other.app"))
        XCTAssertNil(store.entry(keyID: "TESTKEY001")?.key.topics)
    }
}
