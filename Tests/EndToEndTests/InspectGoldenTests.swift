import APNsModel
import Foundation
import PeerSupport
import XCTest

/// The inspection commands print, byte for byte, what they printed before they streamed (issue 26): the outputs in
/// `Fixtures/inspect/goldens.json` were made by the binary of 8fcfd21, which read whole recordings into memory
/// (`scripts/inspect-goldens.py` regenerates them when an output format changes on purpose), over a real
/// `serve --record` recording and a copy with a blank line, a CRLF line and a torn last line.
final class InspectGoldenTests: LeakCheckedTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/inspect").standardized

    func testEveryCommandPrintsWhatItPrintedBeforeStreaming() async throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("goldens.json"))
        guard case .array(let cases) = try JSONValue.parse(Array(data)) else { return XCTFail("goldens.json is not a list") }
        XCTAssertGreaterThan(cases.count, 30)
        for golden in cases {
            let recording = try XCTUnwrap(golden["recording"]?.stringValue)
            guard case .array(let values)? = golden["arguments"] else { return XCTFail("a case has no arguments") }
            let arguments = values.compactMap(\.stringValue)
            let path = Self.folder.appendingPathComponent(recording).path
            let result = try await InspectCLI.run(arguments + ["--file", path], environment: ["NO_COLOR": "1"])
            let label = "\(arguments.joined(separator: " ")) on \(recording)"
            XCTAssertEqual(Int64(result.status), golden["status"]?.integerValue, "\(label): \(result.stderr)")
            let stdout = try XCTUnwrap(golden["stdout"]?.stringValue).replacingOccurrences(of: "{file}", with: path)
            let stderr = try XCTUnwrap(golden["stderr"]?.stringValue).replacingOccurrences(of: "{file}", with: path)
            XCTAssertEqual(result.stdout, stdout, label)
            XCTAssertEqual(result.stderr, stderr, label)
        }
    }
}
