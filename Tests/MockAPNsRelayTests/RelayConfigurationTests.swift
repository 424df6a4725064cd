import APNsClient
import Foundation
import MockAPNsRelay
import MockTestSupport
import XCTest

/// `APNsClientRelay(configuration:)`: the relay a `RelayConfiguration` makes, and the error naming the field to fix
/// when it cannot be made. No socket: a relay opens no connection before its first push.
final class RelayConfigurationTests: XCTestCase {
    private func pem(_ name: String) throws -> String {
        try String(contentsOfFile: RepoPaths.cert(name), encoding: .utf8)
    }

    private func resigning() throws -> RelayCredentials {
        .resign(privateKeyPEM: try pem("AuthKey_TESTKEY001.p8"), keyID: "TESTKEY001", teamID: "TESTTEAM01")
    }

    /// The error `configuration` is refused with; nil (and a failure) when it made a relay.
    private func refusal(_ configuration: RelayConfiguration, file: StaticString = #filePath, line: UInt = #line)
        async -> RelayConfigurationError? {
        do {
            let relay = try APNsClientRelay(configuration: configuration)
            await relay.shutdown()
            XCTFail("\(configuration) made a relay", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testTheDefaultsForwardEachSendersToken() {
        let configuration = RelayConfiguration(upstream: .development)
        XCTAssertEqual(configuration.credentials, .forward(clientCertificate: nil))
        XCTAssertNil(configuration.trustRootsPEM, "Apple's servers: the system store")
        XCTAssertEqual(configuration.timeout, .seconds(10))
        XCTAssertEqual(configuration.connections, 2)
        XCTAssertEqual(configuration.maxInFlight, 1000)
    }

    func testARelayNamesItsUpstreamAndWhoItIsToIt() async throws {
        let resigning = try APNsClientRelay(configuration: RelayConfiguration(
            upstream: .custom(url: "https://127.0.0.1:1"), credentials: try resigning()))
        XCTAssertEqual(resigning.upstream, "https://127.0.0.1:1")
        XCTAssertEqual(resigning.identity, "re-signing every push with key TESTKEY001 of team TESTTEAM01")
        await resigning.shutdown()

        let forwarding = try APNsClientRelay(configuration: RelayConfiguration(upstream: .development))
        XCTAssertEqual(forwarding.upstream, "https://api.sandbox.push.apple.com")
        XCTAssertTrue(forwarding.identity.contains("certificate senders are answered 403"), forwarding.identity)
        await forwarding.shutdown()

        let certificate = RelayClientCertificate(certificatePEM: try pem("client-app.pem"), privateKeyPEM: try pem("client-app-key.pem"))
        let withCertificate = try APNsClientRelay(configuration: RelayConfiguration(
            upstream: .production, credentials: .forward(clientCertificate: certificate), trustRootsPEM: try pem("ca.pem")))
        XCTAssertEqual(withCertificate.upstream, "https://api.push.apple.com")
        XCTAssertTrue(withCertificate.identity.contains("with the relay's own certificate"), withCertificate.identity)
        await withCertificate.shutdown()
    }

    func testABadUpstreamURLIsSaidAtStartNotOnTheFirstPush() async {
        let scheme = await refusal(RelayConfiguration(upstream: .custom(url: "ftp://upstream.example")))
        XCTAssertEqual(scheme, .invalidUpstream("ftp://upstream.example: the scheme must be https (TLS) or http (h2c), not ftp"))
        XCTAssertEqual(scheme?.description, "the relay's upstream cannot be used: ftp://upstream.example: the scheme must be "
            + "https (TLS) or http (h2c), not ftp")
        let notURL = await refusal(RelayConfiguration(upstream: .custom(url: "upstream")))
        XCTAssertEqual(notURL, .invalidUpstream("upstream is not a URL like https://host:port"))
    }

    func testLimitsMustBePositive() async {
        let upstream = APNsEndpoint.custom(url: "https://127.0.0.1:1")
        let timeout = await refusal(RelayConfiguration(upstream: upstream, timeout: .zero))
        XCTAssertEqual(timeout, .invalidTimeout(.zero))
        XCTAssertEqual(timeout?.description, "the relay's timeout must be more than 0 seconds, not 0.0 seconds")
        let connections = await refusal(RelayConfiguration(upstream: upstream, connections: 0))
        XCTAssertEqual(connections?.description, "the relay's connections must be at least 1, not 0")
        let inFlight = await refusal(RelayConfiguration(upstream: upstream, maxInFlight: -1))
        XCTAssertEqual(inFlight?.description, "the relay's maxInFlight must be at least 1, not -1")
    }

    func testKeysAndCertificatesAreReadAtStart() async throws {
        let upstream = APNsEndpoint.custom(url: "https://127.0.0.1:1")
        let key = await refusal(RelayConfiguration(
            upstream: upstream, credentials: .resign(privateKeyPEM: "not a key", keyID: "K", teamID: "T")))
        guard case .invalidSigningKey(let why)? = key else { return XCTFail("\(String(describing: key))") }
        XCTAssertTrue(why.contains("PEM"), why)

        let notCertificate = RelayClientCertificate(certificatePEM: try pem("client-app-key.pem"), privateKeyPEM: try pem("client-app-key.pem"))
        let certificate = await refusal(RelayConfiguration(upstream: upstream, credentials: .forward(clientCertificate: notCertificate)))
        guard case .invalidClientCertificate? = certificate else { return XCTFail("\(String(describing: certificate))") }

        let roots = await refusal(RelayConfiguration(upstream: upstream, trustRootsPEM: "no certificate here"))
        guard case .invalidTrustRoots? = roots else { return XCTFail("\(String(describing: roots))") }
        XCTAssertTrue(roots?.description.hasPrefix("the relay's trustRootsPEM cannot be used: ") == true, "\(String(describing: roots))")
    }
}
