import APNsModel
import ModelTestSupport
import XCTest

final class PayloadTests: XCTestCase {
    private func padded(_ count: Int) -> [UInt8] { ConformanceCase.paddedBody(count) }

    func testSizeLimitsPerPushType() {
        XCTAssertEqual(padded(4096).count, 4096)
        for type in PushType.allCases {
            let limit = type == .voip ? 5120 : 4096
            XCTAssertEqual(type.maximumPayloadBytes, limit)
            XCTAssertNoThrow(try PayloadRules.check(padded(limit), limit: type.maximumPayloadBytes, malformedReason: .badRequestPayload).get(), "\(type)")
            XCTAssertEqual(PayloadRules.check(padded(limit + 1), limit: type.maximumPayloadBytes, malformedReason: .badRequestPayload),
                           .failure(.payloadTooLarge), "\(type)")
        }
        XCTAssertEqual(PayloadRules.check(padded(5120), limit: PayloadRules.maximumBroadcastBytes, malformedReason: .badRequestPayload).map { _ in 1 }, .success(1))
        XCTAssertEqual(PayloadRules.check(padded(5121), limit: PayloadRules.maximumBroadcastBytes, malformedReason: .badRequestPayload), .failure(.payloadTooLarge))
    }

    func testBodyShapes() {
        let cases: [([UInt8], Result<Bool, APNsReason>, String)] = [
            ([], .failure(.payloadEmpty), "empty"),
            (Array("{}".utf8), .success(true), "empty object"),
            (Array(#"{"aps":{"alert":"x"}}"#.utf8), .success(true), "object"),
            (Array(#"[{"aps":{}}]"#.utf8), .failure(.payloadEmpty), "array"),
            (Array(#""text""#.utf8), .failure(.payloadEmpty), "string"),
            (Array("null".utf8), .failure(.payloadEmpty), "null"),
            (Array("garbage".utf8), .failure(.payloadEmpty), "garbage"),
            (Array(#"{"aps":{}}}"#.utf8), .failure(.payloadEmpty), "trailing garbage"),
            ([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D], .failure(.payloadEmpty), "invalid UTF-8"),
            (Array(" ".utf8), .failure(.payloadEmpty), "whitespace only"),
        ]
        for (body, expected, label) in cases {
            // The malformed reason is configurable; use PayloadEmpty here to see it is honoured.
            let result = PayloadRules.check(body, limit: 4096, malformedReason: .payloadEmpty).map { $0.isJSONObject }
            XCTAssertEqual(result, expected, label)
        }
        XCTAssertEqual(PayloadRules.check(Array("x".utf8), limit: 4096, malformedReason: .badRequestPayload), .failure(.badRequestPayload))
        XCTAssertEqual(PayloadRules.check(Array(repeating: 0x78, count: 5000), limit: 4096, malformedReason: .badRequestPayload),
                       .failure(.payloadTooLarge), "size is checked before parsing")
    }

    /// `checkText` gives `check`'s reasons in `check`'s order without building the tree.
    func testCheckTextGivesCheckReasons() {
        let body = Array("not json".utf8)
        XCTAssertEqual(PayloadRules.checkText(body, limit: 4096, malformedReason: .badRequestPayload), .badRequestPayload)
        XCTAssertEqual(PayloadRules.checkText(body, limit: 4, malformedReason: .badRequestPayload), .payloadTooLarge)
        XCTAssertEqual(PayloadRules.checkText([], limit: 4096, malformedReason: .badRequestPayload), .payloadEmpty)
        XCTAssertNil(PayloadRules.checkText(Array(#"{"aps":{}}"#.utf8), limit: 4096, malformedReason: .badRequestPayload))
        XCTAssertEqual(PayloadRules.checkText(Array("[1]".utf8), limit: 4096, malformedReason: .payloadEmpty), .payloadEmpty)
    }

    func testPayloadView() throws {
        let text = #"""
        {"aps":{"alert":{"title":"Game","subtitle":"Five","body":"Bob","loc-key":"K","loc-args":["a","b"],
        "title-loc-key":"T","title-loc-args":["x"],"subtitle-loc-key":"S","subtitle-loc-args":[],"launch-image":"l.png",
        "action-loc-key":"A","summary-arg":"s","summary-arg-count":2,"action":"go"},
        "badge":9,"sound":{"critical":1,"name":"default","volume":0.5},"thread-id":"t","category":"C",
        "content-available":1,"mutable-content":1,"target-content-id":"w","interruption-level":"time-sensitive",
        "relevance-score":0.75,"filter-criteria":"work","url-args":["u"],"unknown-aps-key":true},
        "gameID":"1","z":[1]}
        """#
        let payload = try XCTUnwrap(Payload(bytes: Array(text.utf8)))
        let aps = try XCTUnwrap(payload.aps)
        guard case .dictionary(let alert)? = aps.alert else { return XCTFail("alert dictionary") }
        XCTAssertEqual(alert.title, "Game")
        XCTAssertEqual(alert.subtitle, "Five")
        XCTAssertEqual(alert.body, "Bob")
        XCTAssertEqual(alert.locKey, "K")
        XCTAssertEqual(alert.locArgs, ["a", "b"])
        XCTAssertEqual(alert.titleLocKey, "T")
        XCTAssertEqual(alert.titleLocArgs, ["x"])
        XCTAssertEqual(alert.subtitleLocKey, "S")
        XCTAssertEqual(alert.subtitleLocArgs, [])
        XCTAssertEqual(alert.launchImage, "l.png")
        XCTAssertEqual(alert.actionLocKey, "A")
        XCTAssertEqual(alert.summaryArg, "s")
        XCTAssertEqual(alert.summaryArgCount, 2)
        XCTAssertEqual(alert.action, "go")
        XCTAssertEqual(aps.alert?.bodyText, "Bob")
        XCTAssertEqual(aps.badge, 9)
        guard case .critical(let sound)? = aps.sound else { return XCTFail("critical sound") }
        XCTAssertEqual(sound.critical, 1)
        XCTAssertEqual(sound.volume, 0.5)
        XCTAssertEqual(aps.sound?.name, "default")
        XCTAssertEqual(aps.threadID, "t")
        XCTAssertEqual(aps.category, "C")
        XCTAssertEqual(aps.contentAvailable, 1)
        XCTAssertEqual(aps.mutableContent, 1)
        XCTAssertEqual(aps.targetContentID, "w")
        XCTAssertEqual(aps.interruptionLevel, "time-sensitive")
        XCTAssertEqual(aps.relevanceScore, 0.75)
        XCTAssertEqual(aps.filterCriteria, "work")
        XCTAssertEqual(aps.urlArgs, ["u"])
        XCTAssertEqual(aps.json["unknown-aps-key"], .bool(true), "unknown keys stay reachable")
        XCTAssertFalse(aps.isBackgroundOnly)
        XCTAssertEqual(payload.customMembers.map(\.key), ["gameID", "z"])
    }

    func testLiveActivityAndWidgetKeys() throws {
        let text = #"""
        {"aps":{"timestamp":1800000000,"event":"start","content-state":{"score":"1-0"},"stale-date":1800000600,
        "dismissal-date":1800003600,"attributes-type":"MatchAttributes","attributes":{"team":"A"},
        "input-push-token":1,"input-push-channel":"dGVzdA==","relevance-score":50,
        "alert":{"title":{"loc-key":"T"},"body":"b","sound":"chime.aiff"},"content-changed":true}}
        """#
        let aps = try XCTUnwrap(Payload(bytes: Array(text.utf8))?.aps)
        XCTAssertEqual(aps.timestamp, 1_800_000_000)
        XCTAssertEqual(aps.event, "start")
        XCTAssertEqual(aps.contentState?["score"], .string("1-0"))
        XCTAssertEqual(aps.staleDate, 1_800_000_600)
        XCTAssertEqual(aps.dismissalDate, 1_800_003_600)
        XCTAssertEqual(aps.attributesType, "MatchAttributes")
        XCTAssertEqual(aps.attributes?["team"], .string("A"))
        XCTAssertEqual(aps.inputPushToken, 1)
        XCTAssertEqual(aps.inputPushChannel, "dGVzdA==")
        XCTAssertEqual(aps.relevanceScore, 50)
        XCTAssertEqual(aps.contentChanged, true)
        guard case .dictionary(let alert)? = aps.alert else { return XCTFail("alert") }
        XCTAssertNil(alert.title, "a localized title dictionary is not a string")
        XCTAssertEqual(alert.json["title"]?["loc-key"], .string("T"))
        XCTAssertEqual(alert.sound?.name, "chime.aiff")
    }

    func testSimpleForms() throws {
        let aps = try XCTUnwrap(Payload(bytes: Array(#"{"aps":{"alert":"Hi","sound":"default","badge":"x"}}"#.utf8))?.aps)
        XCTAssertEqual(aps.alert, .text("Hi"))
        XCTAssertEqual(aps.sound, .named("default"))
        XCTAssertNil(aps.badge, "a string badge is not a badge")
        XCTAssertEqual(aps.json["badge"], .string("x"))
        XCTAssertNil(Payload(bytes: Array("[1]".utf8)))
        XCTAssertNil(Payload(.object([])).aps)
        XCTAssertEqual(Payload(bytes: Array(#"{"mdm":"magic"}"#.utf8))?.mdmPushMagic, "magic")
        XCTAssertTrue(try XCTUnwrap(Payload(bytes: Array(#"{"aps":{"content-available":1}}"#.utf8))?.aps).isBackgroundOnly)
    }
}
