import Foundation
import HTTP2
import PeerSupport
import XCTest

/// Base class: starts servers with a `TestHandler` and shuts them down after the test.
open class ServerTestCase: LeakCheckedTestCase {
    public var pki: TestPKI { TestPKI.shared }

    /// Starts a server (TLS unless `tls` is false) on 127.0.0.1, port 0, two loops.
    public func startServer(
        tls: Bool = true, requestClientCertificate: Bool = false, host: String = "127.0.0.1",
        handler: TestHandler = TestHandler(), configure: (inout HTTP2ServerConfiguration) -> Void = { _ in }
    ) async throws -> (HTTP2Server, TestHandler) {
        var configuration = HTTP2ServerConfiguration(host: host, port: 0, loopCount: 2)
        if tls { configuration.tls = pki.serverTLS(requestClientCertificate: requestClientCertificate) }
        configure(&configuration)
        let server = try HTTP2Server(configuration: configuration, handler: handler)
        try await server.start()
        addTeardownBlock { await server.shutdown(gracePeriod: .seconds(1)) }
        return (server, handler)
    }

    /// `curl --http2` against the server; returns the result (headers with -D -, body discarded unless asked).
    public func curl(_ server: HTTP2Server, path: String = "/echo", tls: Bool = true, host: String = "localhost",
              extra: [String] = []) throws -> PeerProcess.Output {
        let scheme = tls ? "https" : "http"
        var arguments = ["-sS", "--max-time", "20", "-D", "-", "-o", "/dev/null"]
        arguments += tls ? ["--http2", "--cacert", pki.caPath] : ["--http2-prior-knowledge"]
        arguments += ["-g", "\(scheme)://\(host):\(server.localPort)\(path)"]
        return try PeerProcess.run("curl", arguments + extra, timeout: 30)
    }

    /// Asserts that a plain curl request still gets 200: the server survived whatever came before.
    public func assertStillServes(_ server: HTTP2Server, tls: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try curl(server, tls: tls)
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), "server stopped serving: \(result.stdout) \(result.stderr)",
                      file: file, line: line)
    }
}
