import JSON
import XCTest

/// `JSONValueEncoder`: members in `CodingKeys` order (not hash order, not sorted), nil as absent or `null` as the
/// type chose, a `JSONValue` inside kept as it is, and the text the same bytes a hand-built tree writes.
final class JSONValueEncoderTests: XCTestCase {
    private struct Body: Encodable {
        let zeta: String
        let alpha: Int
        let absent: String?
        let nested: Inner
        let list: [UInt8]
        let open: JSONValue

        enum CodingKeys: String, CodingKey { case zeta, alpha, absent, nested, list, open }
    }

    private struct Inner: Encodable {
        let yes: Bool
        let explicitNull: String?
        let big: UInt64

        enum CodingKeys: String, CodingKey { case yes, explicitNull = "explicit_null", big }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(yes, forKey: .yes)
            try container.encode(explicitNull, forKey: .explicitNull)
            try container.encode(big, forKey: .big)
        }
    }

    func testMembersInCodingKeysOrderWithNullsAndOpenJSONKept() throws {
        let open = try JSONValue.parse(Array(#"{"z":1,"a":[1.5,"x/y"],"z":2}"#.utf8))
        let body = Body(zeta: "a/b \"q\"\n", alpha: -3, absent: nil,
                        nested: Inner(yes: true, explicitNull: nil, big: UInt64(Int64.max)), list: [1, 2], open: open)
        let tree = try JSONValueEncoder().encode(body)
        XCTAssertEqual(tree.objectKeys, ["zeta", "alpha", "nested", "list", "open"], "nil encoded if present: no member")
        XCTAssertEqual(tree["open"], open, "a JSONValue is taken as it is, duplicate key and all")
        XCTAssertEqual(tree.jsonText(),
                       #"{"zeta":"a/b \"q\"\n","alpha":-3,"nested":{"yes":true,"explicit_null":null,"big":9223372036854775807},"#
                       + #""list":[1,2],"open":{"z":1,"a":[1.5,"x/y"],"z":2}}"#)
    }

    func testTheSameTextAsATreeBuiltByHand() throws {
        struct Answer: Encodable {
            let status: Int
            let reason: String?
            let apnsID: String?

            enum CodingKeys: String, CodingKey { case status, reason, apnsID = "apns_id" }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(status, forKey: .status)
                try container.encode(reason, forKey: .reason)
                try container.encode(apnsID, forKey: .apnsID)
            }
        }
        let byHand = JSONValue.object([.init("status", .integer(400)), .init("reason", .string("BadDeviceToken")),
                                       .init("apns_id", .null)])
        let encoded = try JSONValueEncoder().encode(Answer(status: 400, reason: "BadDeviceToken", apnsID: nil))
        XCTAssertEqual(encoded, byHand)
        XCTAssertEqual(encoded.jsonText(), byHand.jsonText())
    }

    func testNumbersJSONCannotHoldAreErrors() {
        XCTAssertThrowsError(try JSONValueEncoder().encode([UInt64.max]))
        XCTAssertThrowsError(try JSONValueEncoder().encode(["x": Double.nan]))
        XCTAssertThrowsError(try JSONValueEncoder().encode(Double.infinity))
        XCTAssertEqual(try JSONValueEncoder().encode([0.5]), .array([.double(0.5)]))
    }

    func testJSONValueEncodesThroughAnyEncoderInWireOrder() throws {
        // Through a second, generic pass (JSONValue's own encode(to:)) the order is still the tree's.
        struct Wrapper: Encodable {
            let value: JSONValue
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        let value = JSONValue.object([.init("b", .integer(1)), .init("a", .array([.null, .bool(false), .double(2.5)]))])
        XCTAssertEqual(try JSONValueEncoder().encode(Wrapper(value: value)), value)
    }
}
