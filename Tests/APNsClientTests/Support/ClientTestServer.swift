import APNsClient
import Foundation
@testable import MockAPNs

/// A mock started in-process on a free port over TLS with the bundled test credentials, and clients for it.
struct ClientTestServer {
    let server: MockAPNsServer

    /// A 64-digit device token.
    static let token = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"

    static func start(_ configure: (inout MockServerConfiguration) -> Void = { _ in }) throws -> ClientTestServer {
        var configuration = MockServerConfiguration()
        configuration.port = 0
        configuration.credentialsDirectory = RepoPaths.certs
        configure(&configuration)
        let server = try MockAPNsServer(configuration: configuration)
        try server.start()
        return ClientTestServer(server: server)
    }

    var port: Int { server.port }
    var recorder: Recorder { server.recorder }
    var url: String { "https://127.0.0.1:\(port)" }

    func stop() async { await server.shutdown(gracePeriod: .milliseconds(200)) }

    /// A client configuration for this server: TLS with the bundled CA, token auth with TESTKEY001 by default.
    func configuration(
        authentication: APNsAuthentication? = nil, connections: Int = 1,
        retryPolicy: APNsRetryPolicy = APNsRetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), maxDelay: .milliseconds(100)),
        requestTimeout: Duration = .seconds(10)
    ) throws -> APNsClientConfiguration {
        APNsClientConfiguration(
            environment: .custom(url: url),
            authentication: try authentication ?? Self.testKey(),
            trustRootsPEM: try RepoPaths.text("ca.pem"),
            connections: connections, requestTimeout: requestTimeout, retryPolicy: retryPolicy)
    }

    /// Token auth with a bundled key (`keyID`'s .p8 when bundled, else TESTKEY001's key under that ID).
    static func testKey(keyID: String = "TESTKEY001", teamID: String = "TESTTEAM01") throws -> APNsAuthentication {
        let file = FileManager.default.fileExists(atPath: RepoPaths.cert("AuthKey_\(keyID).p8")) ? keyID : "TESTKEY001"
        return .token(privateKeyPEM: try RepoPaths.text("AuthKey_\(file).p8"), keyID: keyID, teamID: teamID)
    }

    /// Certificate auth with a bundled client certificate (`client-app`, …).
    static func certificate(_ name: String) throws -> APNsAuthentication {
        .certificate(pem: try RepoPaths.text("\(name).pem"), privateKeyPEM: try RepoPaths.text("\(name)-key.pem"))
    }
}
