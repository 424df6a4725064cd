import FCMModel
import JSON
import XCTest

/// Success answers (fcm-rules §1.1) and the Android model (fcm-rules §6).
final class AnswerAndAndroidTests: XCTestCase {
    func testNames() {
        let name = FCMSendAnswer.name(project: "mockapns-test", messageID: 1_500_415_314_455_276, toTopic: false)
        XCTAssertNotNil(name.range(of: #"^projects/mockapns-test/messages/0:1500415314455276%([0-9a-f]{8})\1$"#, options: .regularExpression), name)
        XCTAssertEqual(name, "projects/mockapns-test/messages/0:1500415314455276%41c639a441c639a4", "FNV-1a of the project, twice")
        XCTAssertEqual(FCMSendAnswer.name(project: "mockapns-test", messageID: 0, toTopic: false),
                       "projects/mockapns-test/messages/0:0%41c639a441c639a4")
        XCTAssertEqual(FCMSendAnswer.name(project: "p", messageID: .max, toTopic: true), "projects/p/messages/18446744073709551615")
        XCTAssertNotEqual(name.suffix(16), FCMSendAnswer.name(project: "other", messageID: 1, toTopic: false).suffix(16))
        XCTAssertEqual(FCMSendAnswer.name(project: "p", messageID: 7, toTopic: true), "projects/p/messages/7")
        XCTAssertEqual(FCMSendAnswer.dryRunName(project: "p"), "projects/p/messages/fake_message_id")
        XCTAssertEqual(FCMSendAnswer.json(name: "n").jsonText(), #"{"name":"n"}"#)
        XCTAssertEqual(String(decoding: FCMSendAnswer.body(name: "n"), as: UTF8.self), "{\n  \"name\": \"n\"\n}\n")
    }

    private func message(_ json: String) throws -> FCMMessage {
        try FCMSendRequest.parse(Array(#"{"message": \#(json)}"#.utf8)).message
    }

    func testHandling() throws {
        let cases: [(String, Bool, FCMAndroidHandling)] = [
            (#"{"topic": "a", "notification": {"title": "t"}}"#, false, .systemTray(dataInIntent: false)),
            (#"{"topic": "a", "notification": {"title": "t"}, "data": {"k": "v"}}"#, false, .systemTray(dataInIntent: true)),
            (#"{"topic": "a", "notification": {"title": "t"}, "data": {"k": "v"}}"#, true, .onMessageReceived),
            (#"{"topic": "a", "data": {"k": "v"}}"#, false, .onMessageReceived),
            (#"{"topic": "a", "data": {"k": "v"}}"#, true, .onMessageReceived),
            (#"{"topic": "a", "android": {"notification": {"body": "b"}, "data": {"x": "1"}}}"#, false, .systemTray(dataInIntent: true)),
            (#"{"topic": "a", "notification": {"image": "https://x"}}"#, false, .onMessageReceived),
        ]
        for (json, foreground, handling) in cases {
            XCTAssertEqual(FCMAndroidHandling.of(try message(json), appInForeground: foreground), handling, "\(json) foreground \(foreground)")
        }
    }

    func testOfflineDelivery() throws {
        func m(_ key: String?, ttl: String? = nil, tag: String) throws -> FCMMessage {
            var android: [String] = []
            if let key { android.append(#""collapse_key": "\#(key)""#) }
            if let ttl { android.append(#""ttl": "\#(ttl)""#) }
            return try message(#"{"topic": "a", "data": {"tag": "\#(tag)"}, "android": {\#(android.joined(separator: ", "))}}"#)
        }
        func tags(_ messages: [FCMMessage]) -> [String] { messages.compactMap { $0.data.value(forKey: "tag") } }
        let pending: [(message: FCMMessage, sentAt: Int64)] = [
            (try m("score", tag: "s1"), 0), (try m(nil, tag: "plain1"), 1), (try m("score", tag: "s2"), 2),
            (try m(nil, ttl: "0s", tag: "now-or-never"), 3), (try m(nil, ttl: "10s", tag: "short"), 4), (try m(nil, tag: "plain2"), 5),
        ]
        XCTAssertEqual(tags(FCMAndroidHandling.delivered(pending, reconnectAt: 100)), ["plain1", "s2", "plain2"])
        XCTAssertEqual(tags(FCMAndroidHandling.delivered(pending, reconnectAt: 10)), ["plain1", "s2", "short", "plain2"])
        let keys = try (1...6).map { (message: try m("k\($0)", tag: "k\($0)"), sentAt: Int64($0)) }
        XCTAssertEqual(tags(FCMAndroidHandling.delivered(keys, reconnectAt: 10)), ["k3", "k4", "k5", "k6"], "four collapse keys at most")
        XCTAssertEqual(tags(FCMAndroidHandling.delivered([(try m(nil, tag: "old"), 0)], reconnectAt: 2_419_201)), [], "four weeks by default")
    }
}
