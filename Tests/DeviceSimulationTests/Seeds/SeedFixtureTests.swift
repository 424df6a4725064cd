import XCTest

@testable import APNsModel
@testable import DeviceSimulation

/// Runs every `Fixtures/seeds/NAME.payload.json` through the simulator on each device profile its
/// `NAME.expected.json` lists, and compares with the expected simulation (and tap, when listed).
///
/// Set `MOCKAPNS_UPDATE_GOLDENS=1` to rewrite the expected files from the current output (then review the diff).
final class SeedFixtureTests: XCTestCase {
    /// The request headers a fixture is sent with.
    struct Request: Decodable {
        var pushType: PushType?
        var priority: Priority?
        var topic: String?
        var collapseID: String?
    }

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/seeds")

    func testSeedFixturesMatchTheirGoldenFiles() throws {
        let update = ProcessInfo.processInfo.environment["MOCKAPNS_UPDATE_GOLDENS"] == "1"
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
            .filter { $0.hasSuffix(".payload.json") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10, "seed fixtures missing from \(Self.directory.path)")
        for name in names {
            let stem = String(name.dropLast(".payload.json".count))
            try check(stem, update: update)
        }
    }

    private func check(_ stem: String, update: Bool) throws {
        let payloadURL = Self.directory.appendingPathComponent("\(stem).payload.json")
        let expectedURL = Self.directory.appendingPathComponent("\(stem).expected.json")
        let payload = json(String(decoding: try Data(contentsOf: payloadURL), as: UTF8.self))
        guard var golden = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any],
            var cases = golden["cases"] as? [[String: Any]], !cases.isEmpty
        else {
            return XCTFail("\(stem).expected.json needs a \"cases\" array")
        }
        let requestObject = golden["request"] ?? [String: Any]()
        let request = try JSONDecoder().decode(
            Request.self, from: JSONSerialization.data(withJSONObject: requestObject))
        let input = SimulationInput(
            pushType: request.pushType, priority: request.priority, topic: request.topic,
            collapseID: request.collapseID, payload: payload)

        for index in cases.indices {
            let name = cases[index]["name"] as? String ?? "case \(index)"
            let device = try JSONDecoder().decode(
                DeviceProfile.self,
                from: JSONSerialization.data(withJSONObject: cases[index]["device"] ?? [String: Any]()))
            var results: [(String, String)] = [
                ("simulation", try GoldenText.canonical(encoding: DeliverySimulator.simulate(input, on: device)))
            ]
            if cases[index].keys.contains("tap") {
                results.append(
                    ("tap", try GoldenText.canonical(encoding: DeliverySimulator.simulateTap(input, on: device))))
            }
            for (key, actual) in results {
                if update {
                    cases[index][key] = try JSONSerialization.jsonObject(with: Data(actual.utf8))
                    continue
                }
                let expected = try GoldenText.canonical(cases[index][key] ?? NSNull())
                if expected != actual {
                    XCTFail(
                        "\(stem) — \(name) — \(key) differs from \(stem).expected.json (- expected, + actual):\n"
                            + GoldenText.diff(expected: expected, actual: actual))
                }
            }
        }
        if update {
            golden["cases"] = cases
            let data = try JSONSerialization.data(withJSONObject: golden, options: [.sortedKeys])
            try Data((try JSONValue.parse(Array(data)).prettyText() + "\n").utf8).write(to: expectedURL)
        }
    }
}
