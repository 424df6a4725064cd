import APNsModel
import Foundation

// Shared by the model-level corpus test (APNsModelTests) and the wire-level runners (MockAPNsTests, APNsClientTests).

/// One file of `Fixtures/conformance`, read with the model's own JSON parser so the body keeps its key order.
/// The format is described in `Fixtures/conformance/README.md`.
public struct ConformanceCase: Sendable {
    /// What the case could not express, as a loader error.
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// One earlier request on the same connection.
    public struct HistoryEntry: Sendable {
        public var atOffset: Int64
        public var auth: JSONValue
        public var request: JSONValue?
        public var expectStatus: Int?
        public var expectReason: String?
    }

    public var file: String
    public var name: String
    public var request: JSONValue
    public var auth: JSONValue
    public var environment: APNsEnvironment
    public var history: [HistoryEntry]
    public var environmentKeyReason: APNsReason
    public var expectedStatus: Int
    public var expectedReason: String?
    public var hasChannelSetup: Bool
    /// The Apple host name the request is sent to (`apple_host`), on the port Apple serves its API on, with the mock
    /// serving Apple's names (`--apple-hosts`); nil = the mock's own address.
    public var appleHost: String?

    /// Which APIs the case's port serves: Apple's split for an Apple host, all of them on the mock's own port.
    public var servedAPIs: ServedAPIs {
        guard let appleHost else { return .all }
        return AppleHost.channelManagement.contains { $0.name == appleHost } ? .channelManagement : .push
    }

    /// The environment the request is decided in: the one its Apple host implies, else the mock's configured one.
    public var decidingEnvironment: APNsEnvironment {
        guard let appleHost else { return environment }
        return AppleHost.pushEnvironment(authority: appleHost)
            ?? AppleHost.channelManagement.first { $0.name == appleHost }?.environment ?? environment
    }

    /// The `Fixtures` folder, found from this source file.
    public static let fixtures = URL(fileURLWithPath: RepoPaths.fixtures)

    /// A valid base64 channel ID standing in for `$CHANNEL`.
    public static let channelID = "dGVzdC1jaGFubmVs"

    /// Every case file, sorted by name.
    public static func all() throws -> [URL] {
        let folder = fixtures.appendingPathComponent("conformance")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    public init(url: URL) throws {
        let data = try Data(contentsOf: url)
        let json = try JSONValue.parse(data)
        file = url.lastPathComponent
        guard let name = json["name"]?.stringValue else { throw LoadError(description: "no name") }
        self.name = name
        guard let request = json["request"], let auth = json["auth"] else { throw LoadError(description: "no request/auth") }
        self.request = request
        self.auth = auth
        let env = json["environment"]?.stringValue ?? "development"
        guard let environment = APNsEnvironment(rawValue: env) else { throw LoadError(description: "bad environment \(env)") }
        self.environment = environment
        history = try (json["connection_history"]?.arrayElements ?? []).map {
            guard let at = $0["at_offset"]?.integerValue, let auth = $0["auth"] else {
                throw LoadError(description: "history entries need at_offset and auth")
            }
            return HistoryEntry(atOffset: at, auth: auth, request: $0["request"],
                                expectStatus: $0.value(at: ["expect", "status"])?.integerValue.map(Int.init),
                                expectReason: $0.value(at: ["expect", "reason"])?.stringValue)
        }
        if let spelling = json.value(at: ["options", "environment_key_reason"])?.stringValue {
            guard let reason = APNsReason(rawValue: spelling) else { throw LoadError(description: "bad option \(spelling)") }
            environmentKeyReason = reason
        } else {
            environmentKeyReason = .badEnvironmentKeyIdInToken
        }
        guard let status = json.value(at: ["expect", "status"])?.integerValue else {
            throw LoadError(description: "no expect.status")
        }
        expectedStatus = Int(status)
        expectedReason = json.value(at: ["expect", "reason"])?.stringValue
        hasChannelSetup = json.value(at: ["setup", "channel"]) != nil
        appleHost = json["apple_host"]?.stringValue
        if let appleHost, !AppleHost.names.contains(appleHost) {
            throw LoadError(description: "apple_host \(appleHost) is not one of Apple's names (\(AppleHost.names.joined(separator: ", ")))")
        }
        guard json.value(at: ["expect", "connection_survives"])?.boolValue != nil else {
            throw LoadError(description: "no expect.connection_survives")
        }
    }

    /// Builds the model request: method, path, the authorization header the auth block implies (first), then
    /// the listed headers, and the body.
    public func makeRequest(_ request: JSONValue, auth: JSONValue) throws -> APNsRequest {
        guard let method = request["method"]?.stringValue, let path = request["path"]?.stringValue else {
            throw LoadError(description: "request needs method and path")
        }
        var headers: [HeaderField] = []
        switch auth["kind"]?.stringValue {
        case "token": headers.append(HeaderField("authorization", "bearer <minted>"))
        case "malformed": headers.append(HeaderField("authorization", auth["authorization"]?.stringValue ?? ""))
        default: break
        }
        if case .array(let pairs)? = request["headers"] {
            for pair in pairs {
                guard case .array(let parts) = pair, parts.count == 2, let name = parts[0].stringValue,
                      var value = parts[1].stringValue else { throw LoadError(description: "headers are [name, value] pairs") }
                if value == "$CHANNEL" { value = Self.channelID }
                headers.append(HeaderField(name, value))
            }
        }
        return APNsRequest(method: method, path: path, headers: headers, body: try body(of: request))
    }

    private func body(of request: JSONValue) throws -> [UInt8] {
        if let body = request["body"] { return Array(body.jsonText().utf8) }
        if let text = request["body_text"]?.stringValue { return Array(text.utf8) }
        if let hex = request["body_hex"]?.stringValue {
            let digits = Array(hex.utf8)
            return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        }
        if let file = request["body_file"]?.stringValue {
            return Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(file)))
        }
        if let count = request["body_bytes"]?.integerValue { return Self.paddedBody(Int(count)) }
        return []
    }

    /// Exactly `count` bytes of `{"aps":{"alert":"pad"},"pad":"xxx…"}`.
    public static func paddedBody(_ count: Int) -> [UInt8] {
        let prefix = #"{"aps":{"alert":"pad"},"pad":""#
        let suffix = #""}"#
        let fill = max(0, count - prefix.utf8.count - suffix.utf8.count)
        return Array((prefix + String(repeating: "x", count: fill) + suffix).utf8)
    }

    /// The default history request: an alert push to com.example.app.
    public static let defaultHistoryRequest: JSONValue = .object([
        .init("method", .string("POST")),
        .init("path", .string("/3/device/5e7a2b1c9d4f0e3a6b8c7d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a")),
        .init("headers", .array([.array([.string("apns-topic"), .string("com.example.app")]),
                                 .array([.string("apns-push-type"), .string("alert")])])),
        .init("body", .object([.init("aps", .object([.init("alert", .string("Hello"))]))])),
    ])

    /// The JSON text of a token auth block's `iat` claim at time `now`: `iat_raw` verbatim when given (any JSON,
    /// e.g. `-9223372036854775808` or `null`), else `now + iat_offset` written as `iat_form` says: `integer`
    /// (default), `fraction` (`….685`, as `time.time()` senders write it), `string` or `fraction-string`.
    public static func issuedAtClaimText(_ auth: JSONValue, now: Int64) -> String {
        if let raw = auth["iat_raw"]?.stringValue { return raw }
        let seconds = now + (auth["iat_offset"]?.integerValue ?? 0)
        switch auth["iat_form"]?.stringValue ?? "integer" {
        case "fraction": return "\(seconds).685"
        case "string": return "\"\(seconds)\""
        case "fraction-string": return "\"\(seconds).685\""
        default: return "\(seconds)"
        }
    }

    /// The status on the wire for a verdict: accepted channel creation is 201, deletion 204.
    public static func wireStatus(_ verdict: Verdict, request: APNsRequest) -> Int {
        verdict.status
    }
}
