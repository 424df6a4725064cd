import JSON
import XCTest

/// `JSONValueDecoder` reads what `JSONValueEncoder` writes, and refuses what does not fit instead of rounding it.
final class JSONValueDecoderTests: XCTestCase {
    private struct Profile: Codable, Equatable {
        enum Mode: String, Codable { case focus, sleep }
        var name: String
        var count: Int
        var small: UInt8
        var ratio: Double
        var on: Bool
        var mode: Mode
        var note: String?
        var tags: [String]
        var nested: [String: Int]
    }

    func testWhatTheEncoderWritesReadsBack() throws {
        let profile = Profile(name: "phone", count: -3, small: 255, ratio: 0.5, on: true, mode: .sleep, note: nil,
                              tags: ["a", "b"], nested: ["x": 1])
        let tree = try JSONValueEncoder().encode(profile)
        XCTAssertEqual(try JSONValueDecoder().decode(Profile.self, from: tree), profile)
        var withNote = profile
        withNote.note = "kept"
        XCTAssertEqual(try JSONValueDecoder().decode(Profile.self, from: try JSONValueEncoder().encode(withNote)), withNote)
    }

    func testARepeatedKeyReadsItsLastValueAndNullReadsAsAbsent() throws {
        let tree = try JSONValue.parse(Array(#"{"name":"a","name":"b","count":1,"small":2,"ratio":3,"on":false,"mode":"focus","note":null,"tags":[],"nested":{}}"#.utf8))
        let profile = try JSONValueDecoder().decode(Profile.self, from: tree)
        XCTAssertEqual(profile.name, "b")
        XCTAssertNil(profile.note)
        XCTAssertEqual(profile.ratio, 3, "an integer reads as a Double")
    }

    func testNumbersThatDoNotFitAreErrorsNotRoundedOrClamped() throws {
        func decode(_ text: String) throws -> Profile {
            let base = #"{"name":"a","count":1,"small":2,"ratio":3,"on":false,"mode":"focus","tags":[],"nested":{}}"#
            var tree = try JSONValue.parse(Array(base.utf8))
            let patch = try JSONValue.parse(Array(text.utf8))
            if case .object(var members) = tree, case .object(let changed) = patch {
                for member in changed { members.append(member) }
                tree = .object(members)
            }
            return try JSONValueDecoder().decode(Profile.self, from: tree)
        }
        XCTAssertThrowsError(try decode(#"{"small":256}"#), "past UInt8")
        XCTAssertThrowsError(try decode(#"{"small":-1}"#), "below UInt8")
        XCTAssertThrowsError(try decode(#"{"count":1.5}"#), "a fraction is not an Int")
        XCTAssertThrowsError(try decode(#"{"mode":"work"}"#), "not a case of the enum")
        XCTAssertThrowsError(try decode(#"{"on":"yes"}"#), "a string is not a Bool")
        XCTAssertThrowsError(try JSONValueDecoder().decode(Profile.self, from: .array([])), "not an object")
        XCTAssertThrowsError(try JSONValueDecoder().decode(Profile.self, from: try JSONValue.parse(Array(#"{"name":"a"}"#.utf8))),
                             "a required key is missing")
    }
}
