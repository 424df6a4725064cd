import FCMModel
import XCTest

/// Targets, registration tokens and topic names (fcm-rules §3.2–§3.4).
final class TargetAndTokenTests: XCTestCase {
    private let fid = "cAbCdEfGhIjKlMnOpQrStU"
    private var rest: String { "APA91b" + String(repeating: "x", count: 134) }

    func testTokenShapes() {
        let cases: [(String, String?, String)] = [
            (fid + ":" + rest, fid, "22-character FID"),
            ("fGw0qy4TGgk:APA91bGtWGjuhp4WRhHXgbabIYp1jxEKI08ofj_v1bKhWAGJQ4e3arRCWzeTf", "fGw0qy4TGgk", "11-character instance id"),
            (fid + ":APA91bzz", fid, "short rest"),
            (fid + ":APA91b-_09AZaz", fid, "URL-safe alphabet"),
            ("not-a-token", nil, "no colon"),
            ("", nil, "empty"),
            (fid + ":", nil, "nothing after the colon"),
            (fid + ":APA91b", nil, "only the marker"),
            (fid + ":apa91bxxxx", nil, "marker in lower case"),
            (fid + ":XPA91bxxxx", nil, "wrong marker"),
            (fid + ":APA91bxx xx", nil, "space"),
            (fid + ":APA91bxx+/", nil, "standard base64 characters"),
            (fid + ":APA91bxx:yy", nil, "second colon"),
            ("cAbCdEfGhIjKlMnOpQrStUV:" + rest, nil, "23-character prefix"),
            ("cAbCdEfGhIj!lMnOpQrStU:" + rest, nil, "bad prefix character"),
            ("APA91b" + String(repeating: "x", count: 140), nil, "bare GCM id"),
            (fid + ":APA91b" + String(repeating: "x", count: 1024), nil, "too long"),
        ]
        for (token, expectedFID, label) in cases {
            do {
                let parsed = try FCMRegistrationToken.parse(token)
                XCTAssertEqual(parsed.fid, expectedFID, label)
                XCTAssertEqual(parsed.token, token, label)
            } catch {
                XCTAssertNil(expectedFID, "\(label): \(error)")
                XCTAssertEqual(error, .invalidRegistrationToken(), label)
                XCTAssertEqual(error.message, "The registration token is not a valid FCM registration token")
                XCTAssertEqual(error.errorCode, .invalidArgument)
            }
        }
    }

    func testMintedTokensLookRealAndParse() throws {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<String>()
        for _ in 0..<200 {
            let minted = FCMRegistrationToken.mint(using: &generator)
            XCTAssertEqual(minted.token.utf8.count, 163)
            XCTAssertEqual(minted.fid.utf8.count, 22)
            XCTAssert("cdef".contains(minted.fid.first!), "an FID starts with c, d, e or f: \(minted.fid)")
            XCTAssertEqual(try FCMRegistrationToken.parse(minted.token), minted)
            XCTAssert(minted.token.hasPrefix(minted.fid + ":APA91b"))
            XCTAssert(seen.insert(minted.token).inserted)
        }
        let bytes = (0..<FCMRegistrationToken.randomByteCount).map { UInt8(truncatingIfNeeded: $0) }
        XCTAssertEqual(FCMRegistrationToken.mint(randomBytes: bytes), FCMRegistrationToken.mint(randomBytes: bytes), "the bytes decide")
        var other = bytes
        other[100] ^= 1
        XCTAssertNotEqual(FCMRegistrationToken.mint(randomBytes: other).token, FCMRegistrationToken.mint(randomBytes: bytes).token)
        XCTAssertEqual(FCMRegistrationToken.randomByteCount, 117)
    }

    func testTopicNames() {
        let cases: [(String, Bool)] = [
            ("news", true), ("foo-bar_1.2~3%20", true), ("A", true), ("", false), ("/topics/news", false), ("news!", false),
            ("né", false), ("two words", false), ("a/b", false),
        ]
        for (name, valid) in cases { XCTAssertEqual(FCMTopic.isValidName(name), valid, name) }
        XCTAssertEqual(FCMTopic.name(fromIIDTarget: "/topics/news"), "news")
        XCTAssertNil(FCMTopic.name(fromIIDTarget: "news"))
        XCTAssertNil(FCMTopic.name(fromIIDTarget: "/topics/"))
        XCTAssertNil(FCMTopic.name(fromIIDTarget: "/topics/a b"))
    }

    func testTargets() throws {
        let token = FCMFixture.registration.token
        let cases: [(String, FCMTarget?, String?)] = [
            (#"{"token": "\#(token)"}"#, .token(try FCMRegistrationToken.parse(token)), nil),
            (#"{"topic": "news"}"#, .topic("news"), nil),
            (#"{"fid": "anything at all"}"#, .fid("anything at all"), nil),
            (#"{"fid": ""}"#, .fid(""), nil),
            (#"{}"#, nil, "Recipient of the message is not set."),
            (#"{"token": null, "topic": null}"#, nil, "Recipient of the message is not set."),
            (#"{"token": ""}"#, nil, "The registration token is not a valid FCM registration token"),
            (#"{"topic": "/topics/news"}"#, nil, "leave out the /topics/ prefix"),
            (#"{"topic": ""}"#, nil, "Invalid topic name"),
        ]
        for (message, target, text) in cases {
            do {
                let parsed = try FCMSendRequest.parse(Array(#"{"message": \#(message)}"#.utf8)).message.target
                XCTAssertEqual(parsed, target, message)
            } catch {
                XCTAssertNil(target, "\(message): \(error)")
                XCTAssert(error.message.contains(text ?? "?"), "\(message): \(error.message)")
                XCTAssertEqual(error.errorCode, .invalidArgument, message)
            }
        }
        let condition = try FCMSendRequest.parse(Array(#"{"message": {"condition": "'a' in topics"}}"#.utf8)).message.target
        XCTAssertEqual(condition.kind, "condition")
        XCTAssertEqual(condition.value, "'a' in topics")
        XCTAssertTrue(condition.isFanOut)
        XCTAssertFalse(FCMTarget.fid("x").isFanOut)
    }
}
