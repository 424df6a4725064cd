import APNsModel
import DeviceSimulation
import Foundation
import ModelTestSupport
import XCTest

/// Runs every `Fixtures/devices` scenario through the model: each push step is decided by `RequestDecider` (the
/// same request shape as `Fixtures/conformance`), accepted pushes and device changes become a `DeviceTimeline`, and
/// each expectation's screen and timeline must contain what the fixture lists (a fixture lists the keys it checks;
/// arrays must match in length and order). The format is in `docs/device-model.md`.
final class DeviceFixtureTests: XCTestCase {
    static let folder = URL(fileURLWithPath: RepoPaths.fixtures).appendingPathComponent("devices")

    func testEveryDeviceScenarioMatchesTheModel() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        XCTAssertGreaterThanOrEqual(files.count, 15, "device scenarios missing from \(Self.folder.path)")
        var checked = 0
        for url in files {
            do {
                checked += try run(url)
            } catch {
                XCTFail("\(url.lastPathComponent): cannot run: \(error)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 30, "the scenarios should check at least 30 screens and timelines")
    }

    func testScenarioFileNamesAreNumberedAndUnique() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json") }
        var numbers = Set<String>()
        for name in names {
            XCTAssertNotNil(name.range(of: #"^\d{3}-[a-z0-9-]+\.json$"#, options: .regularExpression), "bad name \(name)")
            XCTAssert(numbers.insert(String(name.prefix(3))).inserted, "number \(name.prefix(3)) used twice")
        }
    }

    func testTheMatcherReportsWhatDiffers() {
        let actual = json(#"{"a": 1, "b": [{"c": "x", "d": 2}], "e": null}"#)
        XCTAssertEqual(DeviceScenario.mismatches(expected: json(#"{"b": [{"c": "x"}], "e": null}"#), actual: actual), [])
        XCTAssertEqual(DeviceScenario.mismatches(expected: json(#"{"b": [{"c": "y"}]}"#), actual: actual),
                       [#"b[0].c: expected "y", got "x""#])
        XCTAssertEqual(DeviceScenario.mismatches(expected: json(#"{"b": []}"#), actual: actual),
                       [#"b: expected 0 elements, got 1 ([{"c":"x","d":2}])"#])
        XCTAssertEqual(DeviceScenario.mismatches(expected: json(#"{"z": 1}"#), actual: actual), ["z: missing"])
    }

    /// Runs one scenario; answers how many screens and timelines it checked.
    private func run(_ url: URL) throws -> Int {
        let scenario = try DeviceScenario(url: url)
        var connection = TokenConnectionState()
        let context = DecisionContext(
            environment: .development, credential: TestCredentials.tokenCredential(), now: TestCredentials.now)
        let (events, rejections) = scenario.events { RequestDecider.decide($0, context: context, connection: &connection) }
        let timeline = DeviceTimeline(settings: scenario.settings, events: events)
        for problem in rejections { XCTFail("\(scenario.file): \(problem)") }
        var checked = 0
        for expectation in scenario.expectations {
            let (screen, entries) = timeline.replay(until: expectation.at)
            if let expected = expectation.screen {
                for problem in DeviceScenario.mismatches(expected: expected, actual: screen.json) {
                    XCTFail("\(scenario.file) at \(expectation.at): screen.\(problem)\n  [\(scenario.name)]")
                }
                checked += 1
            }
            if let expected = expectation.timeline {
                for problem in DeviceScenario.mismatches(expected: expected, actual: DeviceTimeline.json(entries)) {
                    XCTFail("\(scenario.file) at \(expectation.at): timeline\(problem)\n  [\(scenario.name)]")
                }
                checked += 1
            }
        }
        return checked
    }
}
