import APNsModel
import DeviceSimulation
import XCTest

final class HeaderRulesTests: XCTestCase {
    func testUUIDs() {
        let cases: [(String, Bool)] = [
            ("123e4567-e89b-12d3-a456-4266554400a0", true),
            ("123E4567-E89B-12D3-A456-4266554400A0", true),   // upper case: lenient
            ("00000000-0000-0000-0000-000000000000", true),
            ("123e4567e89b12d3a4564266554400a0", false),
            ("123e4567-e89b-12d3-a456-4266554400a", false),
            ("123e4567-e89b-12d3-a456-4266554400a00", false),
            ("{123e4567-e89b-12d3-a456-4266554400a0}", false),
            ("123e4567-e89b-12d3-a456_4266554400a0", false),
            ("g23e4567-e89b-12d3-a456-4266554400a0", false),
            ("123e4567-e89b-12d3-a4564-266554400a0", false),
            ("", false),
        ]
        for (value, valid) in cases {
            XCTAssertEqual(HeaderRules.isCanonicalUUID(value), valid, value)
            XCTAssertEqual(HeaderRules.checkAPNsID(value), valid ? nil : .badMessageId, value)
        }
        XCTAssertNil(HeaderRules.checkAPNsID(nil))
    }

    func testExpiration() {
        let cases: [(String, Int64?)] = [
            ("0", 0), ("1900000000", 1_900_000_000), ("0001", 1), ("9223372036854775807", .max),
            ("9223372036854775808", nil), ("99999999999999999999", nil), ("-1", nil), ("+1", nil), ("", nil),
            (" 1", nil), ("1.5", nil), ("1e9", nil), ("tomorrow", nil), ("0x10", nil),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(HeaderRules.parseExpiration(value), expected, value)
        }
    }

    func testPriorityPerPushType() {
        for type in PushType.allCases {
            for (value, expected) in [("10", Priority.immediate), ("5", .considerPower), ("1", .prioritizePower), ("05", .considerPower)] {
                let result = HeaderRules.checkPriority(value, pushType: type)
                if type == .background && expected == .immediate {
                    XCTAssertEqual(result, .failure(.badPriority), "background 10 is an error")
                } else {
                    XCTAssertEqual(result, .success(expected), "\(type) \(value)")
                }
            }
            for bad in ["0", "2", "7", "11", "100", "high", "", "-5", " 5", "5.0"] {
                XCTAssertEqual(HeaderRules.checkPriority(bad, pushType: type), .failure(.badPriority), "\(type) \(bad)")
            }
            XCTAssertEqual(HeaderRules.checkPriority(nil, pushType: type),
                           .success(type == .background ? .considerPower : .immediate), "default for \(type)")
        }
    }

    func testCollapseID() {
        XCTAssertNil(HeaderRules.checkCollapseID(nil))
        XCTAssertNil(HeaderRules.checkCollapseID(""))
        XCTAssertNil(HeaderRules.checkCollapseID(String(repeating: "c", count: 64)))
        XCTAssertEqual(HeaderRules.checkCollapseID(String(repeating: "c", count: 65)), .badCollapseId)
        XCTAssertNil(HeaderRules.checkCollapseID(String(repeating: "é", count: 32)), "64 bytes")
        XCTAssertEqual(HeaderRules.checkCollapseID(String(repeating: "é", count: 33)), .badCollapseId, "66 bytes, 33 characters")
        XCTAssertEqual(HeaderRules.checkCollapseID(String(repeating: "😀", count: 17)), .badCollapseId, "68 bytes")
    }

    func testDuplicates() {
        func dup(_ names: [String]) -> String? { HeaderRules.firstDuplicate(in: names.map { HeaderField($0, "v") }) }
        XCTAssertNil(dup(["apns-topic", "apns-push-type", "authorization"]))
        XCTAssertEqual(dup(["apns-topic", "apns-push-type", "apns-topic"]), "apns-topic")
        XCTAssertEqual(dup(["Authorization", "authorization"]), "authorization")
        XCTAssertEqual(dup(["apns-something-new", "apns-something-new"]), "apns-something-new")
        XCTAssertEqual(dup(["content-type", "content-type"]), "content-type")
        XCTAssertNil(dup(["user-agent", "user-agent", "accept", "accept", "cookie", "cookie"]), "generic headers: lenient")
    }

    func testPushTypes() {
        for type in PushType.allCases { XCTAssertEqual(HeaderRules.parsePushType(type.rawValue), type) }
        for bad in ["Alert", "ALERT", "", " alert", "sms", "liveActivity"] { XCTAssertNil(HeaderRules.parsePushType(bad), bad) }
        for spelling in ["liveactivity", "Liveactivity", "LiveActivity", "LIVEACTIVITY"] {
            XCTAssertTrue(HeaderRules.isLiveActivityPushType(spelling), spelling)
        }
        XCTAssertFalse(HeaderRules.isLiveActivityPushType("alert"))
    }

    func testChannelIDs() {
        let cases: [(String?, Result<String, APNsReason>)] = [
            (nil, .failure(.missingChannelId)), ("", .failure(.missingChannelId)),
            ("dGVzdC1jaGFubmVs", .success("dGVzdC1jaGFubmVs")), ("dGVzdA==", .success("dGVzdA==")),
            ("dGVzdA", .success("dGVzdA")), ("a-_b", .success("a-_b")), ("ab+/", .success("ab+/")),
            ("dGVzdA=", .failure(.badChannelId)), ("d=GV", .failure(.badChannelId)), ("====", .failure(.badChannelId)),
            ("abcde", .failure(.badChannelId)), ("not base64!", .failure(.badChannelId)), ("%%%", .failure(.badChannelId)),
            (String(repeating: "A", count: 256), .success(String(repeating: "A", count: 256))),
            (String(repeating: "A", count: 260), .failure(.badChannelId)),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(HeaderRules.checkChannelID(value), expected, value ?? "nil")
        }
    }
}
