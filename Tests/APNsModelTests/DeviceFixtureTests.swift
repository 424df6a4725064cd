import APNsModel
import Foundation
import TestSupport
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
        let timeline = DeviceTimeline(settings: scenario.settings, events: scenario.events)
        for problem in scenario.rejections { XCTFail("\(scenario.file): \(problem)") }
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

/// One `Fixtures/devices` file: settings, steps (pushes as requests, device changes), and expectations.
struct DeviceScenario {
    struct Expectation {
        var at: Int64
        var screen: JSONValue?
        var timeline: JSONValue?
    }

    var file: String
    var name: String
    var settings: DeviceSettings
    var events: [DeviceEvent] = []
    /// Push steps whose verdict differs from the step's `expect_status` / `expect_reason`.
    var rejections: [String] = []
    var expectations: [Expectation]

    init(url: URL) throws {
        let document = try JSONValue.parse(Data(contentsOf: url))
        file = url.lastPathComponent
        guard let name = document["name"]?.stringValue else { throw ConformanceCase.LoadError(description: "no name") }
        self.name = name
        settings = try DeviceSettings(json: document["settings"] ?? .object([]))
        var connection = TokenConnectionState()
        let context = DecisionContext(
            environment: .development, credential: TestCredentials.tokenCredential(), now: TestCredentials.now)
        for (index, step) in (document["steps"]?.arrayElements ?? []).enumerated() {
            guard let request = step["request"] else {
                events.append(try DeviceEvent(changeJSON: step))
                continue
            }
            guard let at = step["at"]?.integerValue else {
                throw ConformanceCase.LoadError(description: "step \(index) needs \"at\" (milliseconds since 1970)")
            }
            let apnsRequest = try Self.request(request, step: index)
            let verdict = RequestDecider.decide(apnsRequest, context: context, connection: &connection)
            let wantedStatus = step["expect_status"]?.integerValue ?? 200
            let wantedReason = step["expect_reason"]?.stringValue
            if Int64(verdict.status) != wantedStatus || verdict.reason?.rawValue != wantedReason {
                rejections.append(
                    "step \(index): expected \(wantedStatus) \(wantedReason ?? "-"), the model answers \(verdict.status) \(verdict.reason?.rawValue ?? "-")")
            }
            guard let push = verdict.accepted else { continue }
            guard push.apnsID != nil else {
                throw ConformanceCase.LoadError(description: "step \(index): a push step needs an apns-id header")
            }
            events.append(.push(push, at: at))
        }
        expectations = try (document["expect"]?.arrayElements ?? []).map { item in
            guard let at = item["at"]?.integerValue else {
                throw ConformanceCase.LoadError(description: "each expectation needs \"at\"")
            }
            return Expectation(at: at, screen: item["screen"], timeline: item["timeline"])
        }
        guard !expectations.isEmpty else { throw ConformanceCase.LoadError(description: "no expectations") }
    }

    /// The model request for a step's `request` (`method`, `path`, `headers` as `[name, value]` pairs, `body` as
    /// JSON): the shape of `Fixtures/conformance` requests, so the same step can be sent over the wire.
    static func request(_ json: JSONValue, step: Int) throws -> APNsRequest {
        guard let method = json["method"]?.stringValue, let path = json["path"]?.stringValue, let body = json["body"]
        else {
            throw ConformanceCase.LoadError(description: "step \(step): a request needs method, path and body")
        }
        let headers = try (json["headers"]?.arrayElements ?? []).map { pair in
            guard let parts = pair.arrayElements, parts.count == 2, let name = parts[0].stringValue,
                let value = parts[1].stringValue
            else { throw ConformanceCase.LoadError(description: "step \(step): headers are [name, value] pairs") }
            return HeaderField(name, value)
        }
        return APNsRequest(method: method, path: path, headers: headers, body: Array(body.jsonText().utf8))
    }

    /// Where `actual` does not contain `expected`: objects must have every expected key (others are ignored),
    /// arrays the same length with each element contained, anything else be equal. Paths read like `b[0].c`.
    static func mismatches(expected: JSONValue, actual: JSONValue, path: String = "") -> [String] {
        switch (expected, actual) {
        case (.object(let members), .object):
            return members.flatMap { member -> [String] in
                let at = path.isEmpty ? member.key : "\(path).\(member.key)"
                guard let value = actual[member.key] else { return ["\(at): missing"] }
                return mismatches(expected: member.value, actual: value, path: at)
            }
        case (.array(let wanted), .array(let got)):
            guard wanted.count == got.count else {
                return ["\(path): expected \(wanted.count) elements, got \(got.count)"
                        + (got.isEmpty ? "" : " (\(actual.jsonText()))")]
            }
            return zip(wanted, got).enumerated().flatMap { item in
                mismatches(expected: item.element.0, actual: item.element.1, path: "\(path)[\(item.offset)]")
            }
        default:
            return expected == actual ? [] : ["\(path): expected \(expected.jsonText()), got \(actual.jsonText())"]
        }
    }
}
