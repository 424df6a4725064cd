import HTTP2
import XCTest

/// Base class for tests that talk to a test server with our own client: one client event loop per test.
open class ClientServerTestCase: ServerTestCase {
    public var client: HTTP2Client!

    open override func setUpWithError() throws {
        client = HTTP2Client()
    }

    open override func tearDown() async throws {
        await client.shutdown()
    }

    /// Trusts the test CA (the servers' certificates).
    public var trustTestCA: TLSClientConfiguration { TLSClientConfiguration(trustRoots: .file(pki.caPath)) }

    /// A client connection to `server`.
    public func connect(_ server: HTTP2Server, host: String = "localhost", tls: TLSClientConfiguration?) async throws -> HTTP2ClientConnection {
        try await client.connect(host: host, port: server.localPort, tls: tls)
    }
}
