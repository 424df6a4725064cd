import APNsModel
import Foundation
import PeerSupport
import XCTest

/// The small things a first-hour user trips on, checked by what the commands do (exit status, JSON), not
/// only by their wording: unknown subcommands, `token` without a key, lint's push-type inference, the
/// `simulate` hint, and `expect` naming an absent field.
final class NewcomerStumbleTests: LeakCheckedTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("stumbles")
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAnUnknownSubcommandExits2WithTheClosestNames() async throws {
        let typo = try await InspectCLI.run(["serv"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("Did you mean 'serve'"), typo.stderr)
        let swapped = try await InspectCLI.run(["lsit"])
        XCTAssertEqual(swapped.status, 2)
        XCTAssertTrue(swapped.stderr.contains("'list'"), swapped.stderr)
        // Real subcommands and `help` are not caught.
        let help = try await InspectCLI.run(["help", "wait"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("--ready-file"), help.stdout)
    }

    func testTokenWithoutAKeyFileSignsWithTheBundledTestKey() async throws {
        let result = try await InspectCLI.run(["token", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try result.json()
        XCTAssertEqual(json["key_id"]?.stringValue, "TESTKEY001")
        XCTAssertEqual(json["team_id"]?.stringValue, "TESTTEAM01")
        let token = try XCTUnwrap(json["token"]?.stringValue)
        XCTAssertEqual(token.split(separator: ".").count, 3, token)
    }

    func testLintInfersTheSilentPushTypeAndReportsTheAlertItCarries() async throws {
        let payload = try write(#"{"aps":{"content-available":1,"alert":{"title":"Sync"}}}"#, "silent.json")
        let inferred = try await InspectCLI.run(["lint", payload, "--json"])
        XCTAssertEqual(inferred.status, 1, "an alert in a background push is an error: \(inferred.stdout)")
        let json = try inferred.json()
        XCTAssertEqual(json["inferred_push_type"]?["push_type"]?.stringValue, "background")
        guard case .array(let findings)? = json["findings"] else { return XCTFail(inferred.stdout) }
        XCTAssertTrue(findings.contains { $0["id"]?.stringValue == "background-has-alert" }, inferred.stdout)

        // An explicit push type is used as given, and nothing is said to be inferred.
        let explicit = try await InspectCLI.run(["lint", payload, "--push-type", "alert", "--json"])
        XCTAssertEqual(explicit.status, 0, explicit.stdout)
        XCTAssertNil(try explicit.json()["inferred_push_type"])

        let text = try await InspectCLI.run(["lint", payload])
        XCTAssertTrue(text.stdout.hasPrefix("Push type: background, inferred"), text.stdout)
    }

    func testSimulateHintsAtInAppRoutingWithoutSpoilingJSON() async throws {
        let payload = try write(##"{"aps":{"alert":{"title":"Hi","body":"Coming?"}},"custom":{"i":"x","a":{"inAppSymbol":"bolt.fill","inAppColor":"#ae0000"}}}"##, "inapp.json")
        let plain = try await InspectCLI.run(["simulate", payload, "--topic", "com.example.app", "--push-type", "alert", "--json"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertNoThrow(try plain.json(), "stdout must stay one JSON document")
        XCTAssertTrue(plain.stderr.contains("--in-app-routing"), plain.stderr)
        let routed = try await InspectCLI.run(["simulate", payload, "--topic", "com.example.app", "--push-type", "alert",
                                               "--in-app-routing", "--json"])
        XCTAssertEqual(routed.status, 0, routed.stderr)
        XCTAssertFalse(routed.stderr.contains("Hint"), routed.stderr)
        XCTAssertEqual(try routed.json()["presentation"]?["kind"]?.stringValue, "inApp")
    }

    func testExpectNamesAnAbsentFieldAsAbsent() async throws {
        let recording = try InspectRecording.write()
        let result = try await InspectCLI.run(["expect", "--file", recording, "--where", "aps.sound=default", "--count", "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("aps.sound=default (absent)") || result.stderr.contains("aps.sound=default (absent)"),
                      result.stdout + result.stderr)
        XCTAssertFalse((result.stdout + result.stderr).contains("(missing)"), result.stdout)
    }
}
