import APNsClient
import APNsModel
import ArgumentParser
import TestSupport
import XCTest
@testable import MockAPNsCLI

/// `mockapns send`: which device and body each push gets (`--token-file`, `--payload-template`), and the settings and
/// usage errors its flags resolve to, without sending anything.
final class SendSettingsTests: LeakCheckedTestCase {
    private func settings(_ arguments: [String]) throws -> SendSettings {
        try SendSettings(try SendCommand.parse(arguments))
    }

    /// The usage error `send ARGUMENTS` stops with (exit 2), as its message.
    private func usageError(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try settings(arguments)
            XCTFail("\(arguments) resolved", file: file, line: line)
            return nil
        } catch let failure as CommandFailure {
            return failure.description
        } catch {
            XCTFail("\(arguments): \(error)", file: file, line: line)
            return nil
        }
    }

    private func payloadFile(_ text: String, name: String = "payload.json") throws -> String {
        try writeTestFile(name, text)
    }

    func testTokensGoInTurnAndATemplateNumbersEachBody() {
        let plan = SendPlan(tokens: ["aa", "bb", "cc"],
                            notification: APNsRawNotification(pushType: "alert", topic: "com.example.app",
                                                              payload: Array(#"{"n":{{n}},"id":"x{{n}}"}"#.utf8)),
                            template: true)
        XCTAssertEqual((0..<5).map(plan.token), ["aa", "bb", "cc", "aa", "bb"])
        XCTAssertEqual(String(decoding: plan.notification(0).payload, as: UTF8.self), #"{"n":0,"id":"x0"}"#)
        XCTAssertEqual(String(decoding: plan.notification(1234).payload, as: UTF8.self), #"{"n":1234,"id":"x1234"}"#)
        XCTAssertEqual(plan.notification(7).topic, "com.example.app")
    }

    func testWithoutTemplateEveryPushGetsTheSameBody() {
        let body = Array(#"{"n":"{{n}}"}"#.utf8)
        let plan = SendPlan(tokens: ["aa"], notification: APNsRawNotification(pushType: nil, topic: nil, payload: body), template: false)
        XCTAssertEqual(plan.notification(5).payload, body)
    }

    func testSplitAndTokenFileParsing() {
        XCTAssertEqual(SendPlan.split(Array("a{{n}}b{{n}}".utf8), at: SendPlan.placeholder).map { String(decoding: $0, as: UTF8.self) },
                       ["a", "b", ""])
        XCTAssertEqual(SendPlan.split(Array("{{n".utf8), at: SendPlan.placeholder).count, 1)
        XCTAssertEqual(SendPlan.tokens(inFile: "aa\n\n  bb  \r\n# a comment\ncc"), ["aa", "bb", "cc"])
    }

    func testDefaultsSendToTheLocalMockWithTheBundledKeyAndCA() throws {
        let payload = try payloadFile(#"{"aps":{"alert":"Hi"}}"#)
        let resolved = try settings([payload, "--token", "abcd", "--topic", "com.example.app"])
        XCTAssertEqual(resolved.count, 1)
        XCTAssertEqual(resolved.concurrency, 1, "never more workers than pushes")
        XCTAssertEqual(resolved.giveUpAfter, .seconds(10))
        XCTAssertEqual(resolved.plan.tokens, ["abcd"])
        XCTAssertEqual(resolved.plan.notification.pushType, "alert")
        XCTAssertEqual(resolved.plan.notification.topic, "com.example.app")
        XCTAssertEqual(resolved.plan.notification.payload, Array(#"{"aps":{"alert":"Hi"}}"#.utf8))
        let configuration = try XCTUnwrap(resolved.configurations.first)
        XCTAssertEqual(resolved.configurations.count, 1)
        XCTAssertEqual(configuration.environment, .custom(url: "https://127.0.0.1:2197"))
        XCTAssertEqual(configuration.authentication, .token(privateKeyPEM: try RepoPaths.text("AuthKey_TESTKEY001.p8"),
                                                            keyID: "TESTKEY001", teamID: "TESTTEAM01"))
        XCTAssertEqual(configuration.trustRootsPEM, try RepoPaths.text("ca.pem"))
    }

    func testAnApnsFileGivesTheTopicAndThePushTypeIsInferredFromIt() throws {
        let payload = try payloadFile(#"{"Simulator Target Bundle":"com.example.app","aps":{"content-available":1}}"#, name: "push.apns")
        let resolved = try settings([payload, "--token", "abcd", "--priority", "5", "--count", "4", "--concurrency", "3"])
        XCTAssertEqual(resolved.plan.notification.pushType, "background")
        XCTAssertEqual(resolved.plan.notification.topic, "com.example.app")
        XCTAssertEqual(resolved.plan.notification.payload, Array(#"{"aps":{"content-available":1}}"#.utf8),
                       "the target bundle key is not sent")
        XCTAssertEqual(resolved.plan.notification.headers, [HeaderField(name: "apns-priority", value: "5")])
        XCTAssertEqual(resolved.concurrency, 3)
    }

    func testAVoIPPushGetsTheVoIPTopicSuffix() throws {
        let payload = try payloadFile(#"{"aps":{}}"#)
        let resolved = try settings([payload, "--token", "abcd", "--topic", "com.example.app", "--push-type", "voip"])
        XCTAssertEqual(resolved.plan.notification.topic, "com.example.app.voip")
    }

    func testATokenFileAndSeveralURLsGiveOneConfigurationEach() throws {
        let payload = try payloadFile(#"{"aps":{"alert":"{{n}}"}}"#)
        let tokens = try writeTestFile("tokens.txt", "# devices\naa\nbb\n")
        let resolved = try settings([payload, "--token-file", tokens, "--topic", "t", "--payload-template",
                                     "--url", "http://127.0.0.1:1", "--url", "http://localhost:2", "--connections", "3",
                                     "--give-up-after", "2.5"])
        XCTAssertEqual(resolved.plan.tokens, ["aa", "bb"])
        XCTAssertEqual(resolved.configurations.map(\.environment), [.custom(url: "http://127.0.0.1:1"), .custom(url: "http://localhost:2")])
        XCTAssertEqual(resolved.configurations.map(\.connections), [3, 3])
        XCTAssertEqual(resolved.giveUpAfter, .milliseconds(2_500))
        XCTAssertEqual(String(decoding: resolved.plan.notification(9).payload, as: UTF8.self), #"{"aps":{"alert":"9"}}"#)
    }

    func testEachBadFlagIsAUsageErrorSayingWhatToFix() throws {
        let payload = try payloadFile(#"{"aps":{"alert":"Hi"}}"#)
        let emptyTokens = try writeTestFile("tokens.txt", "# none\n\n")
        let cases: [([String], String)] = [
            ([payload, "--topic", "t"], "--token (or --token-file) is required"),
            ([payload, "--token", "aa", "--token-file", emptyTokens, "--topic", "t"], "use either --token or --token-file"),
            ([payload, "--token-file", emptyTokens, "--topic", "t"], "--token-file \(emptyTokens) holds no device token"),
            ([payload, "--token", "aa"], "--topic is required (or use an .apns file with a \"Simulator Target Bundle\")"),
            ([payload, "--token", "aa", "--topic", "t", "--count", "0"], "--count must be at least 1"),
            ([payload, "--token", "aa", "--topic", "t", "--give-up-after", "0"], "--give-up-after must be a number of seconds above 0, e.g. 10"),
            ([payload, "--token", "aa", "--topic", "t", "--payload-template"], "--payload-template: the payload has no {{n}} to replace"),
            ([payload, "--token", "aa", "--topic", "t", "--push-type", "fax"],
             "--push-type fax is not one of " + PushType.allCases.map(\.rawValue).joined(separator: ", ")),
            ([payload, "--token", "aa", "--topic", "t", "--url", "http://a:1", "--url", "http://a:1"],
             "--url: each server once (a URL is repeated)"),
            ([payload, "--token", "aa", "--topic", "t", "--url", "ftp://127.0.0.1:1"],
             "--url ftp://127.0.0.1:1: The client configuration is invalid: ftp://127.0.0.1:1: the scheme must be https (TLS) or http (h2c), not ftp"),
            ([payload, "--token", "aa", "--topic", "t", "--url", "https://api.example.com"],
             "give --key-file TEAMID:KEYID:PATH or --cert/--cert-key (the bundled test key is only used for a local mock)"),
            ([payload, "--token", "aa", "--topic", "t", "--key-file", "TEAM:KEY"],
             "--key-file takes TEAMID:KEYID:PATH, e.g. TESTTEAM01:TESTKEY001:certs/AuthKey_TESTKEY001.p8"),
            ([payload, "--token", "aa", "--topic", "t", "--key-file", "TEAM:KEY:/nonexistent.p8"], "--key-file /nonexistent.p8: no such file"),
            ([payload, "--token", "aa", "--topic", "t", "--cert", "c.pem"], "--cert and --cert-key go together"),
            (["/nonexistent.json", "--token", "aa", "--topic", "t"], "/nonexistent.json: no such file"),
        ]
        for (arguments, message) in cases {
            XCTAssertEqual(usageError(arguments), message, "\(arguments)")
        }
    }

    func testOnlyLoopbackURLsAreLocal() {
        XCTAssertTrue(SendSettings.isLocal("https://127.0.0.1:2197"))
        XCTAssertTrue(SendSettings.isLocal("http://LOCALHOST:1"))
        XCTAssertTrue(SendSettings.isLocal("https://[::1]:2197"))
        XCTAssertFalse(SendSettings.isLocal("https://api.sandbox.push.apple.com"))
        XCTAssertFalse(SendSettings.isLocal("not a url"))
    }
}
