import ArgumentParser
import MockAPNs
import TestSupport
import XCTest
@testable import MockAPNsCLI

/// `serve --relay` and its flags: the relay they make, and the sentence naming the flag to fix when they do not fit.
final class RelayOptionsTests: LeakCheckedTestCase {
    private func makeRelay(_ arguments: [String]) throws -> APNsClientRelay? {
        try RelayOptions.parse(arguments).makeRelay(environment: EnvironmentOptions())
    }

    /// The message `serve` stops with (exit 2) for these relay flags.
    private func rejection(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) async -> String? {
        do {
            let relay = try makeRelay(arguments)
            await relay?.shutdown()
            XCTFail("\(arguments) made a relay", file: file, line: line)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            XCTFail("\(arguments): \(error)", file: file, line: line)
            return nil
        }
    }

    func testWithoutRelayURLThereIsNoRelay() throws {
        XCTAssertNil(try makeRelay(["--relay-connections", "0"]), "the other flags are only checked with --relay")
    }

    func testAResigningRelayNamesItsUpstream() async throws {
        let key = "TESTTEAM01:TESTKEY001:" + RepoPaths.cert("AuthKey_TESTKEY001.p8")
        let relay = try XCTUnwrap(try makeRelay(["--relay", "https://127.0.0.1:1", "--relay-key-file", key]))
        addTeardownBlock { await relay.shutdown() }
        XCTAssertEqual(relay.upstream, "https://127.0.0.1:1")
    }

    func testAForwardingRelayNamesItsUpstream() async throws {
        let relay = try XCTUnwrap(try makeRelay(["--relay", "http://127.0.0.1:1", "--relay-connections", "1"]))
        addTeardownBlock { await relay.shutdown() }
        XCTAssertEqual(relay.upstream, "http://127.0.0.1:1")
    }

    func testABadURLIsSaidAtStartNotOnTheFirstPush() async {
        let message = await rejection(["--relay", "ftp://upstream.example"])
        XCTAssertEqual(message, "--relay ftp://upstream.example: The client configuration is invalid: ftp://upstream.example: "
            + "the scheme must be https (TLS) or http (h2c), not ftp")
        let notURL = await rejection(["--relay", "upstream"])
        XCTAssertEqual(notURL, "--relay upstream: The client configuration is invalid: upstream is not a URL like https://host:port")
    }

    func testMissingOrHalfGivenCredentialsNameTheFlag() async {
        let cases: [([String], String)] = [
            (["--relay", "https://h", "--relay-key-file", "TEAM:KEY"], "--relay-key-file must be TEAMID:KEYID:PATH, got \"TEAM:KEY\""),
            (["--relay", "https://h", "--relay-key-file", "TEAM:KEY:/nonexistent.p8"],
             "--relay-key-file: cannot read /nonexistent.p8 (missing, unreadable or not text)"),
            (["--relay", "https://h", "--relay-cert", RepoPaths.cert("client-app.pem")], "--relay-cert and --relay-cert-key go together"),
            (["--relay", "https://h", "--relay-cert-key", RepoPaths.cert("client-app-key.pem")], "--relay-cert and --relay-cert-key go together"),
            (["--relay", "https://h", "--relay-key-file", "T:K:" + RepoPaths.cert("AuthKey_TESTKEY001.p8"),
              "--relay-cert", RepoPaths.cert("client-app.pem"), "--relay-cert-key", RepoPaths.cert("client-app-key.pem")],
             "--relay-key-file re-signs every push, so --relay-cert/--relay-cert-key would never be used: give one"),
            (["--relay", "https://h", "--relay-ca", "/nonexistent-ca.pem"],
             "--relay-ca: cannot read /nonexistent-ca.pem (missing, unreadable or not text)"),
        ]
        for (arguments, expected) in cases {
            let message = await rejection(arguments)
            XCTAssertEqual(message, expected, "\(arguments)")
        }
    }

    func testLimitsMustBePositive() async {
        let cases: [([String], String)] = [
            (["--relay", "https://h", "--relay-timeout", "0"], "--relay-timeout must be more than 0 seconds"),
            (["--relay", "https://h", "--relay-connections", "0"], "--relay-connections must be at least 1"),
            (["--relay", "https://h", "--relay-max-in-flight", "0"], "--relay-max-in-flight must be at least 1"),
        ]
        for (arguments, expected) in cases {
            let message = await rejection(arguments)
            XCTAssertEqual(message, expected, "\(arguments)")
        }
    }

    func testRelayMatchIsParsedWithTheDashboardGrammar() throws {
        XCTAssertEqual(try RelayOptions.parse([]).match(environment: EnvironmentOptions()), SearchQuery())
        XCTAssertNotEqual(try RelayOptions.parse(["--relay-match", "topic:com.example.app"]).match(environment: EnvironmentOptions()),
                          SearchQuery())
    }
}
