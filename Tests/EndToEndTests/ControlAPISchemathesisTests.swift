import Foundation
import PeerSupport
import XCTest

/// schemathesis (PyPI, installed by `make deps`) against a live `mockapns serve`: it generates requests from the
/// control API's OpenAPI document (`/api/v1/openapi.json`) and checks that none gets a 5xx and every answer matches
/// the document's schema and content type. The event stream is left out (it never ends).
final class ControlAPISchemathesisTests: LeakCheckedTestCase {

    func testGeneratedRequestsGetNo5xxAndSchemaConformingAnswers() async throws {
        let python = RepoPaths.python
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: schemathesis), "schemathesis is missing: run `make deps`")
        let directory = try makeTestDirectory("schemathesis")
        let ready = directory + "/ready.json"
        let serve = try await ServedMock.start(["--port", "0", "--control-port", "0", "--quiet"], readyFile: ready)
        defer { serve.stop() }
        let readyJSON = serve.ready
        let control = try XCTUnwrap(readyJSON["control_url"]?.stringValue, "serve did not become ready")
        let result = try PeerProcess.run(schemathesis, [
            "run", control + "/api/v1/openapi.json", "--url", control, "--max-examples", "20", "--seed", "1",
            "--checks", "not_a_server_error,response_schema_conformance,content_type_conformance",
            "--exclude-path", "/api/v1/stream", "--phases", "coverage,fuzzing",
        ], timeout: 300)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("passed"), result.stdout)
        // The summary counts what ran, for the note: "N generated, N passed".
        if let line = result.stdout.split(separator: "\n").first(where: { $0.contains(" generated, ") }) { print("schemathesis: \(line)") }
    }
}
