import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsRelay
import TestSupport
import XCTest
@testable import MockAPNsCLI

/// `serve --relay` and its flags: the `RelayConfiguration` they describe (files read, `MOCKAPNS_RELAY*` as
/// fallbacks), the relay `MockAPNsRelay` makes of it, and the sentence naming the flag to fix when they do not fit
/// (the module's own checks: MockAPNsRelayTests).
final class RelayOptionsTests: LeakCheckedTestCase {
    private func makeRelay(_ arguments: [String]) throws -> APNsClientRelay? {
        try RelayOptions.parse(arguments).makeRelay(environment: EnvironmentOptions([:]))
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

    func testTheFlagsBecomeTheConfiguration() throws {
        let keyPath = RepoPaths.cert("AuthKey_TESTKEY001.p8")
        let resigning = try XCTUnwrap(try RelayOptions.parse([
            "--relay", "https://127.0.0.1:1", "--relay-key-file", "TESTTEAM01:TESTKEY001:" + keyPath,
            "--relay-ca", RepoPaths.cert("ca.pem"), "--relay-timeout", "2.5", "--relay-connections", "3",
            "--relay-max-in-flight", "7",
        ]).configuration(environment: EnvironmentOptions([:])))
        XCTAssertEqual(resigning, RelayConfiguration(
            upstream: .custom(url: "https://127.0.0.1:1"),
            credentials: .resign(privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8), keyID: "TESTKEY001",
                                 teamID: "TESTTEAM01"),
            trustRootsPEM: try String(contentsOfFile: RepoPaths.cert("ca.pem"), encoding: .utf8),
            timeout: .milliseconds(2500), connections: 3, maxInFlight: 7))

        let environment = EnvironmentOptions([
            "MOCKAPNS_RELAY": "http://127.0.0.1:2", "MOCKAPNS_RELAY_CERT": RepoPaths.cert("client-app.pem"),
            "MOCKAPNS_RELAY_CERT_KEY": RepoPaths.cert("client-app-key.pem"), "MOCKAPNS_RELAY_TIMEOUT": "4",
        ])
        let forwarding = try XCTUnwrap(try RelayOptions.parse([]).configuration(environment: environment))
        XCTAssertEqual(forwarding.upstream, .custom(url: "http://127.0.0.1:2"))
        XCTAssertEqual(forwarding.credentials, .forward(clientCertificate: RelayClientCertificate(
            certificatePEM: try String(contentsOfFile: RepoPaths.cert("client-app.pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: RepoPaths.cert("client-app-key.pem"), encoding: .utf8))))
        XCTAssertEqual(forwarding.timeout, .seconds(4))
        XCTAssertEqual(forwarding.connections, 2, "the module's default")
        XCTAssertEqual(try RelayOptions.parse(["--relay", "https://h"]).configuration(environment: EnvironmentOptions([:]))?.credentials,
                       .forward(clientCertificate: nil), "no credential of its own: each sender's token is forwarded")
    }

    func testABadURLIsSaidAtStartNotOnTheFirstPush() async {
        let message = await rejection(["--relay", "ftp://upstream.example"])
        XCTAssertEqual(message, "--relay ftp://upstream.example: the scheme must be https (TLS) or http (h2c), not ftp")
        let notURL = await rejection(["--relay", "upstream"])
        XCTAssertEqual(notURL, "--relay upstream is not a URL like https://host:port")
    }

    func testAFileThatIsNotWhatTheFlagWantsNamesTheFlagAndTheFile() async {
        let ca = RepoPaths.cert("ca.pem")
        let key = await rejection(["--relay", "https://h", "--relay-key-file", "T:K:" + ca])
        XCTAssertTrue(key?.hasPrefix("--relay-key-file T:K:\(ca): ") == true, "\(String(describing: key))")
        let certificate = await rejection(["--relay", "https://h", "--relay-cert", RepoPaths.cert("client-app-key.pem"),
                                           "--relay-cert-key", RepoPaths.cert("client-app-key.pem")])
        XCTAssertTrue(certificate?.hasPrefix("--relay-cert \(RepoPaths.cert("client-app-key.pem")): ") == true,
                      "\(String(describing: certificate))")
        let roots = await rejection(["--relay", "https://h", "--relay-ca", RepoPaths.cert("client-app-key.pem")])
        XCTAssertTrue(roots?.hasPrefix("--relay-ca \(RepoPaths.cert("client-app-key.pem")): ") == true, "\(String(describing: roots))")
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
            (["--relay", "https://h", "--relay-timeout", "1e300"],
             "--relay-timeout 1e+300 is out of range: give a number of seconds such as 10"),
            (["--relay", "https://h", "--relay-connections", "0"], "--relay-connections must be at least 1"),
            (["--relay", "https://h", "--relay-max-in-flight", "0"], "--relay-max-in-flight must be at least 1"),
        ]
        for (arguments, expected) in cases {
            let message = await rejection(arguments)
            XCTAssertEqual(message, expected, "\(arguments)")
        }
    }

    func testRelayMatchIsParsedWithTheDashboardGrammar() throws {
        XCTAssertEqual(try RelayOptions.parse([]).match(environment: EnvironmentOptions([:])), SearchQuery())
        XCTAssertNotEqual(try RelayOptions.parse(["--relay-match", "topic:com.example.app"]).match(environment: EnvironmentOptions([:])),
                          SearchQuery())
    }
}
