import APNsModel
import PeerSupport
import XCTest

/// `mockapns export` (JSON Lines, HAR 1.2) and `stats`.
final class InspectExportStatsTests: LeakCheckedTestCase {
    func testJSONLinesExportRoundTripsTheRecording() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["export", "--file", file, "--format", "jsonl"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, try String(contentsOfFile: file, encoding: .utf8))
    }

    func testHARIsValidHAR12() async throws {
        let file = try InspectRecording.write()
        let output = file.replacingOccurrences(of: "rec.jsonl", with: "out.har")
        let result = try await InspectCLI.run(["export", "--file", file, "--format", "har", "--output", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Wrote 4 records to \(output)."), result.stderr)

        // Parsed back with Foundation's parser, as a HAR viewer would.
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: output)))
        let log = try XCTUnwrap((object as? [String: Any])?["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertEqual((log["creator"] as? [String: Any])?["name"] as? String, "mockapns")
        XCTAssertNotNil((log["creator"] as? [String: Any])?["version"] as? String)
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 4)

        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for entry in entries {
            // Required fields of a HAR 1.2 entry, request, response, content and timings.
            let started = try XCTUnwrap(entry["startedDateTime"] as? String)
            XCTAssertNotNil(formatter.date(from: started), started)
            XCTAssertNotNil(entry["time"] as? Double ?? (entry["time"] as? Int).map(Double.init))
            XCTAssertNotNil(entry["cache"] as? [String: Any])
            let request = try XCTUnwrap(entry["request"] as? [String: Any])
            for key in ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"] {
                XCTAssertNotNil(request[key], "request.\(key)")
            }
            XCTAssertEqual(request["httpVersion"] as? String, "HTTP/2")
            XCTAssertNotNil(URL(string: try XCTUnwrap(request["url"] as? String))?.host)
            let post = try XCTUnwrap(request["postData"] as? [String: Any])
            XCTAssertEqual(post["mimeType"] as? String, "application/json")
            XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(post["text"] as? String).utf8)))
            let headers = try XCTUnwrap(request["headers"] as? [[String: String]])
            XCTAssertTrue(headers.contains { $0["name"] == "apns-topic" })
            let response = try XCTUnwrap(entry["response"] as? [String: Any])
            for key in ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"] {
                XCTAssertNotNil(response[key], "response.\(key)")
            }
            let content = try XCTUnwrap(response["content"] as? [String: Any])
            XCTAssertNotNil(content["size"] as? Int)
            XCTAssertNotNil(content["mimeType"] as? String)
            let timings = try XCTUnwrap(entry["timings"] as? [String: Any])
            for key in ["send", "wait", "receive"] { XCTAssertNotNil(timings[key], "timings.\(key)") }
        }
        let rejected = try XCTUnwrap(entries[1]["response"] as? [String: Any])
        XCTAssertEqual(rejected["status"] as? Int, 400)
        XCTAssertEqual(rejected["statusText"] as? String, "Bad Request")
        XCTAssertEqual((rejected["content"] as? [String: Any])?["text"] as? String, #"{"reason":"BadDeviceToken"}"#)
        let accepted = try XCTUnwrap(entries[0]["response"] as? [String: Any])
        let acceptedHeaders = try XCTUnwrap(accepted["headers"] as? [[String: String]])
        XCTAssertEqual(acceptedHeaders.first { $0["name"] == "apns-id" }?["value"], "00000000-0000-4000-8000-000000000001")
    }

    func testStatsTableAndJSON() async throws {
        let file = try InspectRecording.write()
        let table = try await InspectCLI.run(["stats", "--file", file])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("Total 4   accepted 2   rejected 2"), table.stdout)
        XCTAssertTrue(table.stdout.contains("BadDeviceToken  1"), table.stdout)

        let json = try await InspectCLI.run(["stats", "--file", file, "--json"]).json()
        XCTAssertEqual(json["total"]?.integerValue, 4)
        XCTAssertEqual(json.value(at: ["by_status", "410"])?.integerValue, 1)
        XCTAssertEqual(json.value(at: ["by_push_type", "background"])?.integerValue, 1)
    }

    func testAnUnwritableOutputExits2() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["export", "--file", file, "--output", "/nonexistent/dir/out.har", "--format", "har"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("Cannot write /nonexistent/dir/out.har"), result.stderr)
    }

    func testAnUnknownFormatIsAUsageError() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["export", "--file", file, "--format", "csv"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("csv"), result.stderr)
    }
}
