import APNsModel
import DeviceSimulation
import Foundation

/// One `Fixtures/devices` file: device settings, steps (pushes as requests, in the shape of `Fixtures/conformance`,
/// and device changes), and expectations of the screen and timeline at instants. The model test decides each push
/// in memory; the wire test sends the same steps to a running mock. The format is in `docs/device-model.md`.
public struct DeviceScenario: Sendable {
    /// One step, at an instant (milliseconds since 1970).
    public enum Step: Sendable {
        /// A push request, and the status (and reason) APNs answers it with.
        case push(APNsRequest, at: Int64, expectStatus: Int, expectReason: String?)
        /// A device change, as the control API takes it (`{"at", "change", …}`).
        case change(DeviceEvent, json: JSONValue)
    }

    /// What the screen and timeline hold at `at`: the keys listed must match (``mismatches(expected:actual:)``).
    public struct Expectation: Sendable {
        public var at: Int64
        public var screen: JSONValue?
        public var timeline: JSONValue?
    }

    /// The file's name.
    public var file: String
    /// What the scenario shows.
    public var name: String
    /// The device's settings at the start.
    public var settings: DeviceSettings
    /// The settings as written in the file.
    public var settingsJSON: JSONValue
    /// The tokens the device's Live Activities are started through, besides its own (for the mock's timeline).
    public var pushToStartTokens: [String]
    /// The steps, in the file's order.
    public var steps: [Step]
    /// The expectations.
    public var expectations: [Expectation]

    /// The scenarios in `Fixtures/devices`, by file name.
    public static func all() throws -> [DeviceScenario] {
        let folder = URL(fileURLWithPath: RepoPaths.fixtures).appendingPathComponent("devices")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { try DeviceScenario(url: $0) }
    }

    /// Reads a scenario file.
    public init(url: URL) throws {
        let document = try JSONValue.parse(Array(try Data(contentsOf: url)))
        file = url.lastPathComponent
        guard let name = document["name"]?.stringValue else { throw ConformanceCase.LoadError(description: "\(file): no name") }
        self.name = name
        settingsJSON = document["settings"] ?? .object([])
        settings = try DeviceSettings(json: settingsJSON)
        pushToStartTokens = (document["push_to_start_tokens"]?.arrayElements ?? []).compactMap(\.stringValue)
        steps = try (document["steps"]?.arrayElements ?? []).enumerated().map { index, step in
            guard let request = step["request"] else { return .change(try DeviceEvent(changeJSON: step), json: step) }
            guard let at = step["at"]?.integerValue else {
                throw ConformanceCase.LoadError(description: "\(url.lastPathComponent) step \(index) needs \"at\" (milliseconds since 1970)")
            }
            let apnsRequest = try Self.request(request, step: index)
            guard apnsRequest.value(lowercaseName: "apns-id") != nil else {
                throw ConformanceCase.LoadError(description: "step \(index): a push step needs an apns-id header")
            }
            return .push(apnsRequest, at: at, expectStatus: Int(step["expect_status"]?.integerValue ?? 200),
                         expectReason: step["expect_reason"]?.stringValue)
        }
        expectations = try (document["expect"]?.arrayElements ?? []).map { item in
            guard let at = item["at"]?.integerValue else { throw ConformanceCase.LoadError(description: "each expectation needs \"at\"") }
            return Expectation(at: at, screen: item["screen"], timeline: item["timeline"])
        }
        guard !expectations.isEmpty else { throw ConformanceCase.LoadError(description: "\(file): no expectations") }
    }

    /// The timeline's events: every change, and every push `decide` accepts; `rejections` lists the push steps whose
    /// verdict is not the one the step expects.
    public func events(decide: (APNsRequest) -> Verdict) -> (events: [DeviceEvent], rejections: [String]) {
        var events: [DeviceEvent] = []
        var rejections: [String] = []
        for (index, step) in steps.enumerated() {
            switch step {
            case .change(let event, _):
                events.append(event)
            case .push(let request, let at, let status, let reason):
                let verdict = decide(request)
                if verdict.status != status || verdict.reason?.rawValue != reason {
                    rejections.append("step \(index): expected \(status) \(reason ?? "-"), the model answers "
                        + "\(verdict.status) \(verdict.reason?.rawValue ?? "-")")
                }
                if let push = verdict.accepted { events.append(.push(push, at: at)) }
            }
        }
        return (events, rejections)
    }

    /// The model request for a step's `request` (`method`, `path`, `headers` as `[name, value]` pairs, `body` as
    /// JSON): the shape of `Fixtures/conformance` requests, so the same step can be sent over the wire.
    static func request(_ json: JSONValue, step: Int) throws -> APNsRequest {
        guard let method = json["method"]?.stringValue, let path = json["path"]?.stringValue, let body = json["body"] else {
            throw ConformanceCase.LoadError(description: "step \(step): a request needs method, path and body")
        }
        let headers = try (json["headers"]?.arrayElements ?? []).map { pair in
            guard let parts = pair.arrayElements, parts.count == 2, let name = parts[0].stringValue,
                  let value = parts[1].stringValue else {
                throw ConformanceCase.LoadError(description: "step \(step): headers are [name, value] pairs")
            }
            return HeaderField(name, value)
        }
        return APNsRequest(method: method, path: path, headers: headers, body: Array(body.jsonText().utf8))
    }

    /// Where `actual` does not contain `expected`: objects must have every expected key (others are ignored),
    /// arrays the same length with each element contained, anything else be equal. Paths read like `b[0].c`.
    public static func mismatches(expected: JSONValue, actual: JSONValue, path: String = "") -> [String] {
        switch (expected, actual) {
        case (.object(let members), .object):
            return members.flatMap { member -> [String] in
                let at = path.isEmpty ? member.key : "\(path).\(member.key)"
                guard let value = actual[member.key] else { return ["\(at): missing"] }
                return mismatches(expected: member.value, actual: value, path: at)
            }
        case (.array(let wanted), .array(let got)):
            guard wanted.count == got.count else {
                return ["\(path): expected \(wanted.count) elements, got \(got.count)" + (got.isEmpty ? "" : " (\(actual.jsonText()))")]
            }
            return zip(wanted, got).enumerated().flatMap { item in
                mismatches(expected: item.element.0, actual: item.element.1, path: "\(path)[\(item.offset)]")
            }
        default:
            return expected == actual ? [] : ["\(path): expected \(expected.jsonText()), got \(actual.jsonText())"]
        }
    }
}
