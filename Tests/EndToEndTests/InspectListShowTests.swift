import APNsModel
import PeerSupport
import XCTest

/// `mockapns list` and `show` on a recording file.
final class InspectListShowTests: LeakCheckedTestCase {
    func testListPrintsAnAlignedTableWithoutColourOnAPipe() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["list", "--file", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, result.stdout)
        XCTAssertTrue(lines[0].hasPrefix("SEQ  TIME"), lines[0])
        XCTAssertFalse(result.stdout.contains("\u{1B}["), "colour escapes on a pipe")
        let statusColumn = try XCTUnwrap(lines[0].range(of: "STATUS")).lowerBound.utf16Offset(in: lines[0])
        for line in lines.dropFirst() {
            let cell = line.dropFirst(statusColumn).prefix(3)
            XCTAssertTrue(["200", "400", "410"].contains(String(cell)), "misaligned row: \(line)")
        }
        XCTAssertTrue(lines[2].contains("400 BadDeviceToken"), lines[2])
        XCTAssertTrue(lines[3].contains("fault: slow-topic"), lines[3])
        XCTAssertTrue(lines[4].contains("lint: 1"), lines[4])
    }

    func testListFiltersAndJSON() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["list", "--file", file, "--status", "200", "--topic", "com.example.app", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        guard case .array(let items)? = try result.json()["notifications"] else { return XCTFail(result.stdout) }
        XCTAssertEqual(items.compactMap { $0["seq"]?.integerValue }, [1])
        XCTAssertEqual(items.first?.value(at: ["payload", "aps", "alert", "title"])?.stringValue, "Shipped")

        let limited = try await InspectCLI.run(["list", "--file", file, "--limit", "2", "--json"])
        guard case .array(let newest)? = try limited.json()["notifications"] else { return XCTFail(limited.stdout) }
        XCTAssertEqual(newest.compactMap { $0["seq"]?.integerValue }, [3, 4])
    }

    func testShowPrintsHeadersPayloadJWTVerdictFaultsAndLint() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["show", "4", "--file", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = result.stdout
        XCTAssertTrue(text.hasPrefix("Notification #4"), text)
        XCTAssertTrue(text.contains("Verdict     410 Unregistered"), text)
        XCTAssertTrue(text.contains("apns-topic: com.example.app"), text)
        XCTAssertTrue(text.contains(#"header: {"alg":"ES256","kid":"TESTKEY001"}"#), text)
        XCTAssertTrue(text.contains(#"claims: {"iss":"TESTTEAM01","iat":1795442000}"#), text)
        XCTAssertTrue(text.contains("    \"aps\": {\n      \"alert\": {\n        \"title\": \"Delivered\",\n"), text)
        XCTAssertTrue(text.contains("warning badge-not-cleared at aps.badge: The badge grows without a reset."), text)
        XCTAssertTrue(text.contains("On the device"), text)
        XCTAssertTrue(text.contains("  foreground: banner"), text)
        XCTAssertTrue(text.contains("userNotificationCenter(_:willPresent:withCompletionHandler:)"), text)
        XCTAssertTrue(text.contains("  background: banner"), text)

        let faulted = try await InspectCLI.run(["show", "3", "--file", file])
        XCTAssertTrue(faulted.stdout.contains("slow-topic"), faulted.stdout)
    }

    func testShowByAPNsIDAndAsJSON() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["show", "00000000-0000-4000-8000-000000000002", "--file", file, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try result.json()
        XCTAssertEqual(json["seq"]?.integerValue, 2)
        XCTAssertEqual(json.value(at: ["jwt", "claims", "iss"])?.stringValue, "TESTTEAM01")
        XCTAssertEqual(json.value(at: ["response", "reason"])?.stringValue, "BadDeviceToken")
        XCTAssertNotNil(json.value(at: ["simulation", "foreground", "presentation", "kind"])?.stringValue, json.jsonText())
        XCTAssertNotNil(json.value(at: ["simulation", "background", "events"]), json.jsonText())
    }

    func testShowOfAMissingRecordExits2WithAMessage() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["show", "99", "--file", file])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("No record in \(file) has sequence number or apns-id '99'"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testUsageErrorsExit2() async throws {
        let file = try InspectRecording.write()
        let missingFile = try await InspectCLI.run(["list", "--file", "/nonexistent/rec.jsonl"])
        XCTAssertEqual(missingFile.status, 2)
        XCTAssertTrue(missingFile.stderr.contains("Cannot read /nonexistent/rec.jsonl: no such file."), missingFile.stderr)

        let twoSources = try await InspectCLI.run(["list", "--file", file, "--server", "http://127.0.0.1:1"])
        XCTAssertEqual(twoSources.status, 2)
        XCTAssertTrue(twoSources.stderr.contains("at most one of --server, --ready-file, --file and --store"), twoSources.stderr)

        let unknownFlag = try await InspectCLI.run(["list", "--file", file, "--bogus"])
        XCTAssertEqual(unknownFlag.status, 2, unknownFlag.stderr)
        XCTAssertTrue(unknownFlag.stderr.contains("Unknown option '--bogus'"), unknownFlag.stderr)
    }

    func testAnUnreachableServerExits2WithAHint() async throws {
        let result = try await InspectCLI.run(["list", "--server", "http://127.0.0.1:9"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("No mockapns control plane answered at http://127.0.0.1:9"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--file rec.jsonl"), result.stderr)
    }

    func testACorruptRecordingNamesTheLine() async throws {
        let file = try InspectRecording.write()
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("this is not json\n".utf8))
        try handle.close()
        let result = try await InspectCLI.run(["list", "--file", file])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("line 5 is not a mockapns record"), result.stderr)
    }
}
