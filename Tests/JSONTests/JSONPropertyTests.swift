import Support
import JSON
import XCTest

/// Seeded, deterministic property checks for the parser and serializer (`SplitMix64`: a failure reproduces).
final class JSONPropertyTests: XCTestCase {
    private let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "中", "😀", "-", "{", "]"]

    private func randomString(_ g: inout SplitMix64) -> String {
        String((0..<Int.random(in: 0...8, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
    }

    private func randomValue(_ g: inout SplitMix64, depth: Int) -> JSONValue {
        switch Int.random(in: 0...(depth > 3 ? 5 : 7), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &g) >> UInt64.random(in: 0...63, using: &g))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &g))
        case 4: return .double(Double(Int.random(in: -5...5, using: &g)) * 1e-300)
        case 5: return .string(randomString(&g))
        case 6: return .array((0..<Int.random(in: 0...4, using: &g)).map { _ in randomValue(&g, depth: depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...4, using: &g)).map { _ in
                JSONValue.JSONMember(randomString(&g), randomValue(&g, depth: depth + 1))
            })
        }
    }

    func testRandomValuesRoundTrip() throws {
        var g = SplitMix64(seed: 2026)
        for _ in 0..<2000 {
            let value = randomValue(&g, depth: 0)
            XCTAssertEqual(try JSONValue.parse(value.jsonText()), value, value.jsonText())
            XCTAssertEqual(try JSONValue.parse(value.prettyText()), value, value.prettyText())
        }
    }

    func testEveryProperPrefixOfAnObjectIsRejected() throws {
        var g = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let value = JSONValue.object([.init("k", randomValue(&g, depth: 1)), .init("aps", randomValue(&g, depth: 2))])
            let bytes = Array(value.jsonText().utf8)
            for end in 0..<bytes.count {
                XCTAssertThrowsError(try JSONValue.parse(bytes[..<end]), String(decoding: bytes[..<end], as: UTF8.self))
            }
        }
    }

    func testSingleByteCorruptionNeverCrashes() {
        var g = SplitMix64(seed: 99)
        let base = Array(#"{"aps":{"alert":{"title":"Hi \u00e9","body":"x"},"badge":1,"sound":"a"},"n":[1.5e3,-0,true,null]}"#.utf8)
        for _ in 0..<5000 {
            var bytes = base
            bytes[Int.random(in: 0..<bytes.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
            if let value = try? JSONValue.parse(bytes) {
                XCTAssertEqual(try JSONValue.parse(value.jsonText()), value)
            }
        }
    }

    /// The validator (the check the server makes of every body) accepts exactly what `parse` accepts, and calls
    /// exactly its objects objects, on valid texts, their prefixes and single-byte corruptions.
    func testValidatorAgreesWithParse() {
        func kind(_ value: JSONValue?) -> String {
            switch value {
            case nil: return "invalid"
            case .object?: return "object"
            default: return "other"
            }
        }
        func validatorKind(_ bytes: [UInt8]) -> String {
            JSONValue.isObject(bytes) ? "object" : JSONValue.isValid(bytes) ? "other" : "invalid"
        }
        var g = SplitMix64(seed: 4711)
        for round in 0..<2000 {
            // Every other round a long string, so the eight-bytes-at-a-time string scan sees whole words.
            let long = String((0..<Int.random(in: 8...64, using: &g)).map { _ in
                Bool.random(using: &g) ? "x" : alphabet.randomElement(using: &g)!
            })
            let value = round % 2 == 0 ? randomValue(&g, depth: 0) : .object([.init(long, .string(long))])
            let text = Array(value.jsonText().utf8)
            var samples = [text, Array(text.prefix(Int.random(in: 0...text.count, using: &g)))]
            if !text.isEmpty {
                var corrupted = text
                corrupted[Int.random(in: 0..<text.count, using: &g)] = UInt8.random(in: 0...255, using: &g)
                samples.append(corrupted)
            }
            for bytes in samples {
                XCTAssertEqual(validatorKind(bytes), kind(try? JSONValue.parse(bytes)),
                               String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
