import FCMModel
import Foundation
import JSON
import XCTest

/// Runs every `Fixtures/fcm` case through the model and lists every disagreement at once. What the model cannot
/// decide (which tokens are registered, which bearer tokens were issued, what APNs answers, RS256) it takes from
/// the case as a server would meet it, and checks the error FCMModel gives for that situation.
final class FCMConformanceTests: XCTestCase {
    func testEveryCaseMatchesTheModel() throws {
        let files = try FCMFixture.all()
        XCTAssertGreaterThanOrEqual(files.count, 40, "the corpus should hold at least 40 cases")
        var failures: [String] = []
        for url in files {
            do {
                let fixture = try FCMFixture(url: url)
                if let problem = run(fixture) { failures.append("\(fixture.file): \(problem)  [\(fixture.name)]") }
            } catch {
                failures.append("\(url.lastPathComponent): cannot load: \(error)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(files.count) cases disagree with the model:\n" + failures.joined(separator: "\n"))
    }

    func testFilesAreNumberedNamedAndCiteARule() throws {
        var numbers = Set<String>()
        for url in try FCMFixture.all() {
            let name = url.lastPathComponent
            XCTAssertNotNil(name.range(of: #"^\d{3}-[a-z0-9-]+\.json$"#, options: .regularExpression), "bad name \(name)")
            XCTAssert(numbers.insert(String(name.prefix(3))).inserted, "number \(name.prefix(3)) used twice")
            let fixture = try FCMFixture(url: url)
            XCTAssertFalse(fixture.name.isEmpty, "\(name) has no name")
            XCTAssertNotNil(fixture.rule.range(of: #"^fcm-rules §\d+(\.\d+)?$"#, options: .regularExpression), "\(name) rule \(fixture.rule)")
            XCTAssertNotNil(fixture.expect["status"]?.integerValue, "\(name) has no expected status")
        }
    }

    /// Every section of fcm-rules §2–§5 that states a rule has a case, and every errorCode the SDKs map to a class.
    func testCorpusCoversTheRulesAndEveryErrorClass() throws {
        var rules = Set<String>(), codes = Set<String>(), statuses = Set<Int64>()
        for url in try FCMFixture.all() {
            let fixture = try FCMFixture(url: url)
            rules.insert(fixture.rule)
            if let code = fixture.expect["error_code"]?.stringValue { codes.insert(code) }
            if let status = fixture.expect["status"]?.integerValue { statuses.insert(status) }
        }
        for rule in ["§2.1", "§2.2", "§2.3", "§2.4", "§2.5", "§2.6", "§3.1", "§3.2", "§3.3", "§3.4", "§3.5", "§3.6", "§3.7", "§3.8",
                     "§3.9", "§3.10", "§3.11", "§3.12", "§4.5", "§5.1", "§5.2", "§5.3", "§5.4", "§5.5"] {
            XCTAssert(rules.contains("fcm-rules " + rule), "no case cites fcm-rules \(rule)")
        }
        for code in FCMError.ErrorCode.allCases where code != .unspecifiedError {
            XCTAssert(codes.contains(code.rawValue), "no case ends in errorCode \(code.rawValue)")
        }
        XCTAssertEqual(statuses, [200, 400, 401, 403, 404, 429, 500, 503])
    }

    // MARK: Running one case

    private func run(_ fixture: FCMFixture) -> String? {
        if fixture.json["endpoint"]?.stringValue == "token" { return runGrant(fixture) }
        let expect = fixture.expect
        switch fixture.json["auth"]?.stringValue ?? "valid" {
        case "none": return compare(.missingCredential(), expect)
        case "unknown": return compare(.invalidCredential(), expect)
        case "other-project": return compare(.permissionDenied(project: fixture.project), expect)
        default: break
        }
        let request: FCMSendRequest
        do {
            request = try FCMSendRequest.parse(fixture.body)
        } catch {
            return compare(error, expect)
        }
        let message = request.message
        let reaches = Self.reachesDevice(message.target, fixture)
        if case .token = message.target, reaches, fixture.deviceProject != fixture.project {
            return compare(.senderIDMismatch(), expect)
        }
        if !reaches, expect["error_code"]?.stringValue == "UNREGISTERED", fixture.json["apns_answer"] == nil {
            if case .topic = message.target { return "a topic send is never UNREGISTERED" }
            return compare(.unregistered(), expect)
        }
        if request.validateOnly {
            guard expect["status"]?.integerValue == 200 else { return "the model accepted the dry run: expected \(expect.jsonText())" }
            let name = FCMSendAnswer.dryRunName(project: fixture.project)
            if let wanted = expect["name"].map(fixture.substituted)?.stringValue, wanted != name { return "name \(name), expected \(wanted)" }
            return nil
        }
        if let answer = fixture.json["apns_answer"] {
            guard let status = answer["status"]?.integerValue, let error = FCMError.fromAPNs(status: Int(status), reason: answer["reason"]?.stringValue)
            else { return "the APNs answer maps to success" }
            return compare(error, expect)
        }
        guard expect["status"]?.integerValue == 200 else { return "the model accepted: expected \(expect.jsonText())" }
        if let wanted = expect["apns"] {
            guard reaches else { return "the message reaches no device of the case" }
            let topic: String? = if case .topic(let name) = message.target { name } else { nil }
            let push = APNsTranslation.translate(message, fid: FCMFixture.registration.fid, senderID: FCMFixture.senderID,
                                                 messageID: FCMFixture.messageID, topic: topic, bundleID: fixture.bundleID,
                                                 nowSeconds: FCMFixture.now)
            if let problem = compareAPNs(push, fixture.substituted(wanted)) { return problem }
        }
        return nil
    }

    /// Whether the case's registration receives a message to `target`.
    private static func reachesDevice(_ target: FCMTarget, _ fixture: FCMFixture) -> Bool {
        switch target {
        case .token(let token): return token.token == FCMFixture.registration.token
        case .fid(let fid): return fid == FCMFixture.registration.fid
        case .topic(let topic): return fixture.deviceTopics.contains(topic)
        case .condition(let condition): return fixture.device != nil && condition.matches(subscribedTopics: fixture.deviceTopics)
        }
    }

    private func runGrant(_ fixture: FCMFixture) -> String? {
        let expect = fixture.expect
        let signature = fixture.json["grant"]?["signature"]?.stringValue ?? "valid"
        if signature != "valid" {
            // RS256 is the server's (APNsCrypto); the model's part is the error it answers.
            return compareOAuth(.invalidSignature, expect)
        }
        do {
            _ = try OAuthAssertion.parse(formBody: fixture.grantForm, now: FCMFixture.now)
        } catch {
            return compareOAuth(error, expect)
        }
        return expect["status"]?.integerValue == 200 ? nil : "the model granted: expected \(expect.jsonText())"
    }

    // MARK: Comparing

    private func compare(_ error: FCMError, _ expect: JSONValue) -> String? {
        var problems: [String] = []
        if let status = expect["status"]?.integerValue, status != error.httpStatus { problems.append("status \(error.httpStatus), expected \(status)") }
        if let status = expect["error_status"]?.stringValue, status != error.status.rawValue {
            problems.append("error status \(error.status.rawValue), expected \(status)")
        }
        if let code = expect["error_code"] {
            if code.stringValue != error.errorCode?.rawValue {
                problems.append("errorCode \(error.errorCode?.rawValue ?? "none"), expected \(code.stringValue ?? "none")")
            }
        }
        if let field = expect["field"]?.stringValue, !error.fieldViolations.contains(where: { $0.field == field }) {
            problems.append("no violation of \(field) (has \(error.fieldViolations.map { $0.field ?? "-" }))")
        }
        if let text = expect["message_contains"]?.stringValue, !error.message.contains(text) {
            problems.append("message \(JSONEscaping.quoted(error.message)) lacks \(JSONEscaping.quoted(text))")
        }
        if let apns = expect["apns_error"] {
            let answer = error.apnsAnswer
            if answer?.statusCode != apns["statusCode"]?.integerValue.map(Int.init) || answer?.reason != apns["reason"]?.stringValue {
                problems.append("ApnsError \(String(describing: answer)), expected \(apns.jsonText())")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — got \(error)"
    }

    private func compareOAuth(_ error: OAuthError, _ expect: JSONValue) -> String? {
        var problems: [String] = []
        if expect["status"]?.integerValue != Int64(error.httpStatus) { problems.append("status \(error.httpStatus)") }
        if let code = expect["oauth_error"]?.stringValue, code != error.error.rawValue { problems.append("error \(error.error.rawValue), expected \(code)") }
        if let text = expect["error_description"]?.stringValue, text != error.errorDescription { problems.append("description \(error.errorDescription)") }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — got \(error)"
    }

    private func compareAPNs(_ push: APNsTranslation, _ wanted: JSONValue) -> String? {
        var problems: [String] = []
        if let type = wanted["push_type"]?.stringValue, type != push.pushType { problems.append("push type \(push.pushType), expected \(type)") }
        if let device = wanted["device_token"]?.stringValue {
            let target = push.liveActivityToken ?? FCMFixture.apnsToken
            if target != device { problems.append("device token \(target), expected \(device)") }
        }
        for member in wanted["headers"]?.objectMembers ?? [] {
            let value = push.headers.last { $0.name == member.key }?.value
            let expected = member.value.stringValue ?? member.value.jsonText()
            if value == nil || (expected != "*" && value != expected) {
                problems.append("header \(member.key) \(value ?? "absent"), expected \(expected)")
            }
        }
        if let payload = wanted["payload"], let problem = Self.subset(payload, of: push.payloadJSON, path: "payload") { problems.append(problem) }
        for key in wanted["absent"]?.arrayElements?.compactMap(\.stringValue) ?? [] where push.payloadJSON[key] != nil {
            problems.append("payload has \(key)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ") + " — payload \(push.payloadJSON.jsonText())"
    }

    /// Whether every member of `expected` is in `actual` with an equal value ("*": any value), recursively for
    /// objects.
    static func subset(_ expected: JSONValue, of actual: JSONValue?, path: String) -> String? {
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
