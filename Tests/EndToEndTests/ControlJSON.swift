import Foundation
import JSON
import PeerSupport
import XCTest

/// A running mock's control API, read with curl, for the end-to-end tests.
enum ControlJSON {
    /// `GET url`'s JSON; fails the test unless it answers 200.
    static func get(_ url: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let answer = try CurlRequest.send("GET", url)
        XCTAssertEqual(answer.status, 200, answer.body, file: file, line: line)
        return try JSONValue.parse(Array(answer.body.utf8))
    }
}

extension JSONValue {
    /// The array at `key`, or a failure naming what the answer held instead.
    func arrayOf(_ key: String) throws -> [JSONValue] {
        try XCTUnwrap(self[key]?.arrayElements, "no \(key) in \(self)")
    }
}
