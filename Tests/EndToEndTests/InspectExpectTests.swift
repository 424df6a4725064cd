import APNsModel
import PeerSupport
import XCTest

/// `mockapns expect`: exit 0 when the recording holds what is expected, 1 with a readable report otherwise.
final class InspectExpectTests: LeakCheckedTestCase {
    func testPassingExpectationsExit0() async throws {
        let file = try InspectRecording.write()
        let cases: [[String]] = [
            ["--where", "aps.alert.title=Shipped"],
            ["--topic", "com.example.app", "--count", "3"],
            ["--status", "400", "--reason", "BadDeviceToken", "--count", "1"],
            ["--where", "aps.badge=2", "--where", "aps.alert.title=Delivered"],
            ["--where", "aps.alert.title=Nope", "--none"],
            ["--push-type", "alert", "--at-least", "2"],
            ["--since", "3", "--where", "aps.alert.title=Shipped", "--none"],
        ]
        for arguments in cases {
            let result = try await InspectCLI.run(["expect", "--file", file] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.hasPrefix("expect: ok"), result.stdout)
        }
    }

    func testAFailedExpectationExplainsWhatArrivedAndExits1() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["expect", "--file", file, "--topic", "com.example.app", "--where", "aps.alert.title=Shiped"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let text = result.stdout
        XCTAssertTrue(text.hasPrefix("expect: FAILED — wanted at least 1 record with topic=com.example.app, aps.alert.title=Shiped; 0 matched (of 4 records in \(file))."), text)
        XCTAssertTrue(text.contains("Closest records:"), text)
        // The three records on the right topic meet 1 of 2 conditions and rank above the other topic's.
        XCTAssertTrue(text.contains(#"#1  "#) && text.contains(#"meets 1 of 2; missed: aps.alert.title=Shiped (found "Shipped")"#), text)
        XCTAssertFalse(text.contains("#3  "), "the record meeting nothing should rank below three better ones: \(text)")
    }

    func testTooManyMatchesListsThem() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["expect", "--file", file, "--topic", "com.example.app", "--count", "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("wanted exactly 1 record with topic=com.example.app; 3 matched"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Matching records:"), result.stdout)
    }

    func testJSONReport() async throws {
        let file = try InspectRecording.write()
        let result = try await InspectCLI.run(["expect", "--file", file, "--where", "aps.badge=7", "--json"])
        XCTAssertEqual(result.status, 1)
        let json = try result.json()
        XCTAssertEqual(json["met"]?.boolValue, false)
        XCTAssertEqual(json["matching"]?.integerValue, 0)
        XCTAssertEqual(json["message"]?.stringValue?.hasPrefix("expect: FAILED — wanted at least 1 record with aps.badge=7"), true, result.stdout)
        guard case .array(let closest)? = json["closest"] else { return XCTFail(result.stdout) }
        XCTAssertEqual(closest.count, 3)
    }

    func testBadExpectArgumentsExit2() async throws {
        let file = try InspectRecording.write()
        let noEquals = try await InspectCLI.run(["expect", "--file", file, "--where", "aps.alert.title"])
        XCTAssertEqual(noEquals.status, 2)
        XCTAssertTrue(noEquals.stderr.contains("--where needs PATH=VALUE"), noEquals.stderr)
        let twoQuantities = try await InspectCLI.run(["expect", "--file", file, "--count", "1", "--none"])
        XCTAssertEqual(twoQuantities.status, 2)
        XCTAssertTrue(twoQuantities.stderr.contains("only one of --count, --at-least and --none"), twoQuantities.stderr)
    }
}
