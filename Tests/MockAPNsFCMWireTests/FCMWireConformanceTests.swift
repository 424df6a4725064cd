import APNsCrypto
import FCMModel
import Foundation
import JSON
import MockAPNs
import MockAPNsHTTP2
import PeerSupport
import TestSupport
import XCTest
@testable import MockAPNsFCM

/// Every `Fixtures/fcm` case over the wire (format: `Fixtures/fcm/README.md`): the front door's TLS listener on a
/// socket, curl as the sender (HTTP/2 and HTTP/1.1, alternately), and what the model test takes from a case set up for
/// real: registered devices, bearer tokens from the token exchange, APNs's answer as a fault on the device, RS256
/// grants signed with the project's service-account key.
final class FCMWireConformanceTests: LeakCheckedTestCase {
    private var directory = ""
    private var served: FCMTestListener!
    private var mock: Mock { served.mock }
    private var frontDoor: FCMFrontDoor { served.frontDoor }
    private var url: String { served.url }
    private var ca: String { served.ca }
    private var accounts: [String: ServiceAccount] = [:]

    override func setUp() async throws {
        directory = try makeTestDirectory("fcm-wire")
        served = try await FCMTestListener.start(directory: directory)
        for project in ["mockapns-test", "other-project"] {
            accounts[project] = try frontDoor.projects.makeServiceAccount(project: project)
        }
    }

    override func tearDown() async throws {
        await served?.stop()
    }

    func testEveryCaseOverTheWire() async throws {
        let folder = RepoPaths.fixtures + "/fcm"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThan(files.count, 90)
        var failures: [String] = []
        for (index, file) in files.enumerated() {
            let fixture = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
            let http = index % 2 == 0 ? "--http2" : "--http1.1"
            if let problem = try await run(fixture, http: http) { failures.append("\(file) (\(http)): \(problem)") }
        }
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
    }

    // MARK: One case

    private struct Values {
        var project = "mockapns-test"
        var registration: FCMRegistration?
        var account: ServiceAccount?
        var now = Int64(Date().timeIntervalSince1970)
    }

    private func run(_ fixture: JSONValue, http: String) async throws -> String? {
        var values = Values()
        values.project = fixture["project"]?.stringValue ?? "mockapns-test"
        values.account = accounts[values.project] ?? accounts["mockapns-test"]
        let expect = fixture["expect"] ?? .object([])
        if fixture["endpoint"]?.stringValue == "token" {
            let form = try grantForm(fixture["grant"] ?? .object([]), values: values)
            let answer = try curl("/token", http: http, body: form, headers: ["content-type: application/x-www-form-urlencoded"])
            return compareOAuth(answer, expect)
        }
        let device = fixture["device"]
        let deviceProject = device?["project"]?.stringValue ?? values.project
        let platform = FCMPlatform(rawValue: device?["platform"]?.stringValue ?? "ios") ?? .ios
        if frontDoor.projects.project(named: deviceProject) == nil { accounts[deviceProject] = try frontDoor.projects.makeServiceAccount(project: deviceProject) }
        let registration = try frontDoor.register(project: deviceProject, platform: platform,
                                                  bundleID: device?["bundle_id"]?.stringValue ?? "com.example.app", apnsToken: nil)
        for topic in device?["topics"]?.arrayElements?.compactMap(\.stringValue) ?? [] {
            _ = frontDoor.registrations.subscribe(registration.token, to: topic, project: deviceProject, subscribe: true)
        }
        values.registration = registration
        if let answer = fixture["apns_answer"], let apns = registration.apnsToken {
            _ = mock.faults.add(FaultRule(token: apns, action: .status(Int(answer["status"]?.integerValue ?? 500),
                                                                     reason: answer["reason"]?.stringValue ?? "InternalServerError")))
        }
        var headers = ["content-type: application/json"]
        switch fixture["auth"]?.stringValue ?? "valid" {
        case "none": break
        case "unknown": headers.append("authorization: Bearer ya29.never-issued")
        case "other-project": headers.append("authorization: Bearer " + (try bearer(for: "other-project")))
        default: headers.append("authorization: Bearer " + (try bearer(for: values.project)))
        }
        let body = fixture["body_text"]?.stringValue.map { Array($0.utf8) }
            ?? Array(substituted(fixture["body"] ?? .object([]), values).jsonText().utf8)
        let before = mock.recorder.lastSequence
        let answer = try curl("/v1/projects/\(values.project)/messages:send", http: http, body: body, headers: headers)
        let json = (try? JSONValue.parse(answer.body)) ?? .null
        if let status = expect["status"]?.integerValue, status != Int64(answer.status) {
            return "status \(answer.status), expected \(status): \(String(decoding: answer.body, as: UTF8.self))"
        }
        guard answer.status == 200 else { return compareError(json, expect) }
        if let name = expect["name"]?.stringValue, json["name"]?.stringValue != substituted(.string(name), values).stringValue {
            return "name \(json["name"]?.jsonText() ?? "none"), expected \(name)"
        }
        guard let wanted = expect["apns"] else { return nil }
        guard let push = mock.recorder.records().last(where: { $0.seq > before }) else { return "no APNs push was recorded" }
        return compareAPNs(push, substituted(wanted, values), values: values)
    }

    private func bearer(for project: String) throws -> String {
        try served.bearer(try XCTUnwrap(accounts[project]))
    }

    /// The grant's form: a JWT of the case's header and claims, signed by the project's key (or another one).
    private func grantForm(_ grant: JSONValue, values: Values) throws -> [UInt8] {
        let header = substituted(grant["header"] ?? .object([]), values).jsonText()
        let claims = substituted(grant["claims"] ?? .object([]), values).jsonText()
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let key = grant["signature"]?.stringValue == "other-key"
            ? try RSAPrivateKey.generate() : try RSAPrivateKey(pem: try XCTUnwrap(values.account).privateKeyPEM)
        let jwt = input + "." + Base64URL.encode(try key.signRS256(Array(input.utf8)))
        let form = grant["form"]?.objectMembers
            ?? [.init("grant_type", .string(OAuthAssertion.jwtBearerGrantType)), .init("assertion", .string("$JWT"))]
        return Array(form.map { member in
            FormURLEncoding.encode(member.key) + "=" + FormURLEncoding.encode((member.value.stringValue ?? "").replacingOccurrences(of: "$JWT", with: jwt))
        }.joined(separator: "&").utf8)
    }

    private func substituted(_ value: JSONValue, _ values: Values) -> JSONValue {
        switch value {
        case .string(let text):
            if text.hasPrefix("$NOW") {
                let rest = text.dropFirst(4)
                if rest.isEmpty { return .integer(values.now) }
                if let offset = Int64(rest.hasPrefix("+") ? String(rest.dropFirst()) : String(rest)) { return .integer(values.now + offset) }
            }
            let registration = values.registration
            let replacements = [
                ("$TOKEN", registration?.token ?? ""), ("$FID", registration?.fid ?? ""), ("$PROJECT", values.project),
                ("$SENDER_ID", FCMProjects.number(of: values.project)), ("$BUNDLE_ID", registration?.bundleID ?? "com.example.app"),
                ("$APNS_TOKEN", registration?.apnsToken ?? ""), ("$CLIENT_EMAIL", values.account?.clientEmail ?? ""),
                ("$KID", values.account?.privateKeyID ?? ""),
            ]
            var out = text
            for (name, replacement) in replacements { out = out.replacingOccurrences(of: name, with: replacement) }
            return .string(out)
        case .array(let elements): return .array(elements.map { substituted($0, values) })
        case .object(let members): return .object(members.map { .init($0.key, substituted($0.value, values)) })
        default: return value
        }
    }

    // MARK: The wire

    private func curl(_ path: String, http: String, body: [UInt8], headers: [String]) throws -> (status: Int, body: [UInt8]) {
        let bodyFile = directory + "/request-\(UUID().uuidString)"
        let output = directory + "/answer-\(UUID().uuidString)"
        try Data(body).write(to: URL(fileURLWithPath: bodyFile))
        var arguments = ["-sS", http, "--max-time", "20", "--cacert", ca, "-o", output, "-w", "%{http_code}", "-X", "POST",
                         "--data-binary", "@" + bodyFile]
        for header in headers { arguments += ["-H", header] }
        let run = try PeerProcess.run("/usr/bin/curl", arguments + [url + path], timeout: 30)
        XCTAssertEqual(run.status, 0, run.stderr)
        return (Int(run.stdout) ?? 0, Array((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()))
    }

    // MARK: Comparing

    private func compareError(_ json: JSONValue, _ expect: JSONValue) -> String? {
        let error = json["error"] ?? .null
        let details = error["details"]?.arrayElements ?? []
        var problems: [String] = []
        if let status = expect["error_status"]?.stringValue, error["status"]?.stringValue != status {
            problems.append("error status \(error["status"]?.jsonText() ?? "none"), expected \(status)")
        }
        if let code = expect["error_code"] {
            let got = details.first { $0["@type"]?.stringValue == FCMError.fcmErrorType }?["errorCode"]?.stringValue
            if got != code.stringValue { problems.append("errorCode \(got ?? "none"), expected \(code.stringValue ?? "none")") }
        }
        if let field = expect["field"]?.stringValue {
            let fields = details.flatMap { $0["fieldViolations"]?.arrayElements ?? [] }.compactMap { $0["field"]?.stringValue }
            if !fields.contains(field) { problems.append("no violation of \(field) (has \(fields))") }
        }
        if let text = expect["message_contains"]?.stringValue, error["message"]?.stringValue?.contains(text) != true {
            problems.append("message lacks \(text)")
        }
        if let apns = expect["apns_error"] {
            let got = details.first { $0["@type"]?.stringValue == FCMError.apnsErrorType }
            if got?["statusCode"]?.integerValue != apns["statusCode"]?.integerValue || got?["reason"]?.stringValue != apns["reason"]?.stringValue {
                problems.append("ApnsError \(got?.jsonText() ?? "none"), expected \(apns.jsonText())")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — got \(json.jsonText())"
    }

    private func compareOAuth(_ answer: (status: Int, body: [UInt8]), _ expect: JSONValue) -> String? {
        let json = (try? JSONValue.parse(answer.body)) ?? .null
        var problems: [String] = []
        if expect["status"]?.integerValue != Int64(answer.status) { problems.append("status \(answer.status)") }
        if answer.status == 200, json["access_token"]?.stringValue == nil { problems.append("no access_token") }
        if let code = expect["oauth_error"]?.stringValue, json["error"]?.stringValue != code { problems.append("error, expected \(code)") }
        if let text = expect["error_description"]?.stringValue, json["error_description"]?.stringValue != text {
            problems.append("description, expected \(text)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — got \(json.jsonText())"
    }

    private func compareAPNs(_ push: RecordedRequest, _ wanted: JSONValue, values: Values) -> String? {
        var problems: [String] = []
        let header = { (name: String) in push.headers.last { $0.name == name }?.value }
        if let type = wanted["push_type"]?.stringValue, header("apns-push-type") != type {
            problems.append("push type \(header("apns-push-type") ?? "absent"), expected \(type)")
        }
        if let device = wanted["device_token"]?.stringValue, push.deviceToken != device {
            problems.append("device token \(push.deviceToken ?? "none"), expected \(device)")
        }
        for member in wanted["headers"]?.objectMembers ?? [] {
            let value = header(member.key)
            switch member.value {
            case .integer(let number):
                // A time (`$NOW+N`): within a minute of what the case computed.
                if let value, let got = Int64(value), abs(got - number) <= 60 { continue }
                problems.append("header \(member.key) \(value ?? "absent"), expected about \(number)")
            default:
                let expected = member.value.stringValue ?? member.value.jsonText()
                if value == nil || (expected != "*" && value != expected) { problems.append("header \(member.key) \(value ?? "absent"), expected \(expected)") }
            }
        }
        let payload = push.payload ?? .null
        if let wanted = wanted["payload"], let problem = Self.subset(wanted, of: payload, path: "payload") { problems.append(problem) }
        for key in wanted["absent"]?.arrayElements?.compactMap(\.stringValue) ?? [] where payload[key] != nil {
            problems.append("payload has \(key)")
        }
        if push.response.status != 200 { problems.append("APNs answered \(push.response.status) \(push.response.reason ?? "")") }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — payload \(payload.jsonText())"
    }

    private static func subset(_ expected: JSONValue, of actual: JSONValue?, path: String) -> String? {
        guard let actual else { return "\(path) is absent" }
        if expected == .string("*") { return nil }
        if case .object(let members) = expected {
            guard actual.isJSONObject else { return "\(path) is \(actual.jsonText()), expected an object" }
            for member in members {
                if let problem = subset(member.value, of: actual[member.key], path: path + "." + member.key) { return problem }
            }
            return nil
        }
        return expected == actual ? nil : "\(path) is \(actual.jsonText()), expected \(expected.jsonText())"
    }
}
