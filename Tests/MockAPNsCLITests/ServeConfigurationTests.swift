import ArgumentParser
import MockAPNs
import MockAPNsHTTP2
import XCTest
@testable import MockAPNsCLI
import TestSupport

/// `serve`'s configuration from its flags and `MOCKAPNS_*` variables, built in process without starting anything:
/// what the flags become, and the usage error (exit 2) a contradiction or a value out of range gets.
final class ServeConfigurationTests: LeakCheckedTestCase {
    /// The configuration `arguments` (after `serve`) and `variables` give.
    private func configuration(_ arguments: [String], _ variables: [String: String] = [:],
                               file: StaticString = #filePath, line: UInt = #line) throws -> MockDeployment {
        let command = try XCTUnwrap(try MockAPNsCommand.parseAsRoot(["serve"] + arguments) as? ServeCommand,
                                    file: file, line: line)
        return try command.serveConfiguration(environment: EnvironmentOptions(variables)).deployment
    }

    /// The message `arguments` and `variables` are refused with; fails unless it is a usage error.
    private func refusal(_ arguments: [String], _ variables: [String: String] = [:],
                         file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try configuration(arguments, variables, file: file, line: line)
            XCTFail("\(arguments) \(variables) was accepted", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(MockAPNsCommand.exitCode(for: error), .validationFailure, file: file, line: line)
            return MockAPNsCommand.message(for: error)
        }
    }

    func testDefaultsServeTLSOnLoopbackInDevelopment() throws {
        let served = try configuration([])
        XCTAssertEqual(served.listener.host, "127.0.0.1")
        XCTAssertNotNil(served.listener.tls)
        XCTAssertEqual(served.mock.environment, .development)
        XCTAssertEqual(served.mock.logger.logLevel, .info)
        XCTAssertNil(served.mock.recordPath)
        XCTAssertFalse(served.mock.recordSync)
    }

    func testAppleHostsTakeApplesPortsAndACAOfTheUsersOwn() throws {
        let served = try configuration(["--apple-hosts"], ["XDG_DATA_HOME": "/srv/data", "HOME": "/home/ann"])
        XCTAssertEqual(served.listener.appleHosts, ListenerConfiguration.AppleHostPorts())
        XCTAssertEqual(served.listener.appleHosts?.httpsPort, 443)
        XCTAssertEqual(served.listener.appleHosts?.channelManagementSandboxPort, 2195)
        XCTAssertEqual(served.listener.appleHosts?.channelManagementProductionPort, 2196)
        XCTAssertEqual(served.listener.port, 2197)
        XCTAssertEqual(served.listener.tls?.certificateAuthorityDirectory, "/srv/data/mockapns/apple-hosts-ca",
                       "a CA apart from the one `certs --install` puts in the system store")
        let home = try configuration([], ["MOCKAPNS_APPLE_HOSTS": "1", "HOME": "/home/ann", "MOCKAPNS_APPLE_HTTPS_PORT": "0"])
        XCTAssertEqual(home.listener.appleHosts?.httpsPort, 0)
        XCTAssertEqual(home.listener.tls?.certificateAuthorityDirectory, "/home/ann/.local/share/mockapns/apple-hosts-ca")
        let given = try configuration(["--apple-hosts", "--ca-dir", "/tmp/ca", "--manage-sandbox-port", "0",
                                       "--manage-production-port", "12196"])
        XCTAssertEqual(given.listener.tls?.certificateAuthorityDirectory, "/tmp/ca")
        XCTAssertEqual(given.listener.appleHosts?.channelManagementSandboxPort, 0)
        XCTAssertEqual(given.listener.appleHosts?.channelManagementProductionPort, 12196)
        XCTAssertNil(try configuration([]).listener.appleHosts)
    }

    func testAppleHostsRefuseWhatCannotServeApplesNames() {
        XCTAssertEqual(refusal(["--apple-hosts", "--h2c"]),
                       "--apple-hosts serves TLS under Apple's names, and --h2c serves no TLS: drop one")
        XCTAssertEqual(refusal(["--apple-hosts", "--cert", "a.pem", "--key", "b.pem"]),
                       "--apple-hosts issues the certificate for Apple's names, and --cert/--key give one of your own: drop one")
        XCTAssertEqual(refusal(["--apple-hosts"], [:]),
                       "--apple-hosts needs a CA of this machine's own and neither XDG_DATA_HOME nor HOME is set: give --ca-dir DIR")
        XCTAssertEqual(refusal(["--apple-https-port", "8443"]), "--apple-https-port goes with --apple-hosts")
        XCTAssertEqual(refusal(["--apple-hosts", "--ca-dir", "/tmp/ca", "--manage-production-port", "70000"]),
                       "--manage-production-port must be a port from 0 to 65535, got 70000")
    }

    func testAFlagWinsOverItsVariable() throws {
        let served = try configuration(["--port", "2197", "--environment", "production", "--log-level", "debug"],
                                       ["MOCKAPNS_PORT": "9999", "MOCKAPNS_ENVIRONMENT": "development",
                                        "MOCKAPNS_LOG_LEVEL": "error", "MOCKAPNS_HOST": "0.0.0.0"])
        XCTAssertEqual(served.listener.port, 2197)
        XCTAssertEqual(served.mock.environment, .production)
        XCTAssertEqual(served.mock.logger.logLevel, .debug)
        XCTAssertEqual(served.listener.host, "0.0.0.0", "a variable counts where no flag is given")
    }

    func testTLSAndH2CAreExclusiveAndH2CDropsTheImagesTLSNames() throws {
        XCTAssertEqual(refusal(["--tls", "--h2c"]), "--tls and --h2c are exclusive: pick one")
        XCTAssertEqual(refusal(["--h2c"], ["MOCKAPNS_TLS": "1"]), "--tls and --h2c are exclusive: pick one")
        let h2c = try configuration(["--h2c"], ["MOCKAPNS_TLS_NAMES": "apns,mock.local"])
        XCTAssertNil(h2c.listener.tls)
        XCTAssertEqual(h2c.listener.tls?.names, nil, "the image's names give way to --h2c")
        XCTAssertEqual(refusal(["--h2c", "--tls-name", "apns"]),
                       "--tls-name and --ca-dir issue a TLS certificate, and --h2c serves no TLS: drop one")
        XCTAssertEqual(refusal(["--cert", "c.pem", "--key", "k.pem", "--tls-name", "apns"]),
                       "--cert/--key give a certificate of your own, and --tls-name/--ca-dir issue one: pick one way")
    }

    func testTLSNamesComeFromFlagsAndTheVariableAndAreChecked() throws {
        let served = try configuration(["--tls-name", "apns"], ["MOCKAPNS_TLS_NAMES": " mock.local , ,10.0.0.7"])
        XCTAssertEqual(served.listener.tls?.names, ["apns", "mock.local", "10.0.0.7"])
        XCTAssertEqual(refusal(["--tls-name", "bad name"]),
                       "--tls-name \"bad name\" is not a host name or an IP address (letters, digits, '-' and '.', or an IP literal)")
    }

    func testValuesOutOfRangeAreUsageErrors() {
        XCTAssertEqual(refusal(["--environment", "staging"]), "--environment must be development or production, got \"staging\"")
        XCTAssertEqual(refusal(["--environment-key-reason", "BadDeviceToken"]),
                       "--environment-key-reason must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken")
        XCTAssertEqual(refusal(["--max-concurrent-streams", "0"]), "--max-concurrent-streams must be at least 1")
        XCTAssertEqual(refusal(["--max-connections", "0"]), "--max-connections must be at least 1")
        XCTAssertEqual(refusal(["--idle-timeout=-1"]), "--idle-timeout must be 0 (never) or a number of seconds")
        XCTAssertEqual(refusal(["--log-level", "loud"]),
                       "--log-level must be one of trace, debug, info, notice, warning, error, critical")
        XCTAssertEqual(refusal([], ["MOCKAPNS_PORT": "http"]), "MOCKAPNS_PORT must be a whole number, got \"http\"")
    }

    func testRecordSyncNeedsSomewhereToWrite() throws {
        XCTAssertEqual(refusal(["--record-sync"]), "--record-sync needs --record FILE or --store URL")
        let file = try configuration(["--record-sync", "--record", "rec.jsonl"])
        XCTAssertTrue(file.mock.recordSync)
        XCTAssertEqual(file.mock.recordPath, "rec.jsonl")
        XCTAssertTrue(try configuration(["--record-sync"], ["MOCKAPNS_STORE": "postgres://localhost/mock"]).mock.recordSync)
    }

    /// The HTTP/1.1 listener takes the HTTP/2 listener's loops and limits, on its own address and port, without TLS;
    /// the control plane takes a free port beside `--port 0`.
    func testTheHTTP1ListenerAndTheControlPlaneComeFromTheSameFlags() throws {
        let served = try configuration(["--port", "0", "--http1-port", "0", "--http1-host", "::1", "--max-connections", "7",
                                        "--loops", "2", "--idle-timeout", "9"])
        let http1 = try XCTUnwrap(served.http1)
        XCTAssertEqual(http1.host, "::1")
        XCTAssertEqual(http1.port, 0)
        XCTAssertNil(http1.tls)
        XCTAssertNil(http1.appleHosts)
        XCTAssertEqual(http1.maxConnections, 7)
        XCTAssertEqual(http1.loops, .own(2))
        XCTAssertEqual(http1.idleTimeout, .seconds(9))
        XCTAssertEqual(http1.maxBodyBytes, served.listener.maxBodyBytes)
        XCTAssertEqual(served.control?.port, 0)
        XCTAssertEqual(try configuration([]).control?.port, ControlConfiguration.defaultPort)
        XCTAssertNil(try configuration([]).http1)
        XCTAssertEqual(try configuration([]).listener.loops, .shared)
        XCTAssertNil(try configuration(["--no-control"]).control)
        XCTAssertEqual(refusal(["--loops", "0"]), "--loops must be at least 1")
    }

    func testAnIdleTimeoutOfZeroMeansNever() throws {
        XCTAssertNil(try configuration(["--idle-timeout", "0"]).listener.idleTimeout)
        XCTAssertEqual(try configuration(["--idle-timeout", "30"]).listener.idleTimeout, .seconds(30))
        XCTAssertEqual(try configuration(["--max-concurrent-streams", "5000000000"]).mock.maxConcurrentStreams, UInt32.max)
    }
}
