import APNsModel
import Foundation
import PeerSupport
import TestSupport
import XCTest

/// `mockapns device TOKEN` against a running mock, its record file, and the file with the device's changes given
/// by `--devices`: the same screen from each source, and usage errors that say what to write.
final class DeviceCommandTests: LeakCheckedTestCase {
    private let token = "aabbccdd00112233"

    func testTheDeviceCommandShowsTheScreenFromAServerAndFromARecording() async throws {
        let directory = try makeTestDirectory("device-command")
        let ready = directory + "/ready.json", record = directory + "/rec.jsonl"
        let serve = try await ServedMock.start(["--port", "0", "--control-port", "0", "--quiet", "--record", record],
                                               readyFile: ready)
        defer { serve.stop() }
        let json = serve.ready
        let apns = try XCTUnwrap(json["apns_url"]?.stringValue), control = try XCTUnwrap(json["control_url"]?.stringValue)
        let offline = try CurlRequest.send("PUT", control + "/api/v1/devices/\(token)", body: #"{"online":false}"#)
        XCTAssertEqual(offline.status, 200, offline.body)
        for (index, collapse) in ["order", "order"].enumerated() {
            let run = try PeerProcess.run("/usr/bin/curl", [
                "-sS", "--http2", "--cacert", RepoPaths.cert("ca.pem"), "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "authorization: bearer " + (try TestTokens.jwt()), "-H", "apns-topic: com.example.app",
                "-H", "apns-collapse-id: \(collapse)", "-H", "apns-id: 00000000-0000-4000-8000-00000000000\(index + 1)",
                "--data-binary", #"{"aps":{"alert":{"title":"Order \#(index + 1)","body":"shipped"},"badge":\#(index + 1)}}"#,
                apns + "/3/device/" + token,
            ], timeout: 30)
            XCTAssertEqual(run.stdout, "200", run.stderr)
        }

        let live = try await InspectCLI.run(["device", token, "--server", control, "--json"])
        XCTAssertEqual(live.status, 0, live.stderr)
        let screen = try live.json()["screen"]
        XCTAssertEqual(screen?["online"], .bool(false))
        XCTAssertEqual(screen?["stored"]?.arrayElements?.compactMap { $0["apns_id"]?.stringValue },
                       ["00000000-0000-4000-8000-000000000002"], "APNs keeps the newer push while the device is offline")
        XCTAssertEqual(try live.json()["timeline"]?.arrayElements?.compactMap { $0["outcome"]?.stringValue },
                       ["stored", "replaced", "stored"], "the first is replaced as the second arrives")
        XCTAssertEqual(try live.json()["timeline"]?.arrayElements?.map { $0["console_state"] },
                       [.string("Stored - Device Offline"), .null, .string("Stored - Device Offline")],
                       "each entry in the Push Notifications Console's words; a replaced stored push has none")
        let text = try await InspectCLI.run(["device", token, "--server", control])
        XCTAssertTrue(text.stdout.contains("Stored by APNs"), text.stdout)
        XCTAssertTrue(text.stdout.contains("offline"), text.stdout)
        XCTAssertTrue(text.stdout.contains("CONSOLE STATE") && text.stdout.contains("Stored - Device Offline"), text.stdout)

        serve.stop()
        _ = try await serve.waitForExit(timeout: .seconds(30))
        // The recording alone has no changes: the device was online, so both pushes were shown, the second replacing
        // the first; the badge is the last one set.
        let fromFile = try await InspectCLI.run(["device", token, "--file", record, "--json"])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertEqual(try fromFile.json()["screen"]?["badge"]?.integerValue, 2)
        XCTAssertEqual(try fromFile.json()["screen"]?["notifications"]?.arrayElements?.compactMap { $0["title"]?.stringValue },
                       ["Order 2"])
        // With the device's changes from a --devices file, the same story as the server told.
        let devices = directory + "/devices.json"
        try Data(#"[{"token":"\#(token)","online":false,"at":0}]"#.utf8).write(to: URL(fileURLWithPath: devices))
        let withChanges = try await InspectCLI.run(["device", token, "--file", record, "--devices", devices, "--json"])
        XCTAssertEqual(try withChanges.json()["screen"]?["stored"]?.arrayElements?.count, 1, withChanges.stdout)
    }

    func testUsageErrorsSayWhatToWrite() async throws {
        let cases: [([String], String)] = [
            (["device", "not-hex", "--file", "/dev/null"], "hexadecimal"),
            (["device", token, "--at", "yesterday", "--file", "/dev/null"], "ISO 8601"),
            (["device", token, "--devices", "/nonexistent.json", "--file", "/dev/null"], "--devices /nonexistent.json"),
            (["device", token, "--devices", "/nonexistent.json", "--server", "http://127.0.0.1:9"], "--devices goes with --file"),
        ]
        for (arguments, message) in cases {
            let result = try await InspectCLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
