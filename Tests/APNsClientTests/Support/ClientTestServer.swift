import APNsClient
import Foundation
import MockAPNs
import TestSupport

/// The shared in-process test server (TLS, bundled credentials, free port), with client configurations for it.
typealias ClientTestServer = TestServer

extension TestServer {
    /// A 64-digit device token.
    static var token: String { TestTokens.token64 }

    /// A client configuration for this server: TLS with the bundled CA, token auth with TESTKEY001 by default.
    func configuration(
        authentication: APNsAuthentication? = nil, connections: Int = 1,
        retryPolicy: APNsRetryPolicy = APNsRetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(10), maxDelay: .milliseconds(100)),
        requestTimeout: Duration = .seconds(10), eventLoopThreads: Int? = nil
    ) throws -> APNsClientConfiguration {
        APNsClientConfiguration(
            environment: .custom(url: url),
            authentication: try authentication ?? Self.testKey(),
            trustRootsPEM: try RepoPaths.text("ca.pem"),
            connections: connections, requestTimeout: requestTimeout, retryPolicy: retryPolicy,
            eventLoopThreads: eventLoopThreads)
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
