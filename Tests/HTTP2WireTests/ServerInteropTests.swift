import Foundation
import HTTP2
import HTTP2TestSupport
import PeerSupport
import XCTest

/// The server against real HTTP/2 peers: curl, nghttp, h2load, Python h2.
final class ServerInteropTests: ServerTestCase {
    func testCurlOverTLSNegotiatesH2AndEchoes() async throws {
        let (server, handler) = try await startServer()
        let result = try curl(server, path: "/echo?x=1", extra: ["-d", "hello", "-H", "x-one: 1", "-H", "x-one: 2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), result.stdout)
        XCTAssertTrue(result.stdout.contains("x-body-length: 5"), result.stdout)
        XCTAssertTrue(result.stdout.contains("x-alpn: h2"), result.stdout)
        let request = try XCTUnwrap(handler.requests.first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/echo?x=1")
        XCTAssertEqual(request.scheme, "https")
        XCTAssertEqual(request.authority, "localhost:\(server.localPort)")
        XCTAssertEqual(request.body, Array("hello".utf8))
        XCTAssertFalse(request.bodyOverflowed)
        XCTAssertEqual(request.headers.filter { $0.name == "x-one" }.map(\.value), ["1", "2"])
        XCTAssertFalse(request.headers.contains { $0.name.hasPrefix(":") })
        XCTAssertTrue(request.remoteAddress.hasPrefix("127.0.0.1:"), request.remoteAddress)
        XCTAssertNil(request.peerCertificateDER)
        XCTAssertGreaterThan(request.receivedAt, 0)
    }

    func testNghttpOverTLSAndH2C() async throws {
        let nghttp = try PeerProcess.resolve("nghttp")
        let (tlsServer, _) = try await startServer()
        let tlsResult = try PeerProcess.run(nghttp, ["-nv", "https://localhost:\(tlsServer.localPort)/echo"], timeout: 30)
        XCTAssertEqual(tlsResult.status, 0, tlsResult.stdout + tlsResult.stderr)
        XCTAssertTrue(tlsResult.stdout.contains(":status: 200"), tlsResult.stdout)

        let (plainServer, plainHandler) = try await startServer(tls: false)
        let plainResult = try PeerProcess.run(nghttp, ["-nv", "http://127.0.0.1:\(plainServer.localPort)/echo"], timeout: 30)
        XCTAssertEqual(plainResult.status, 0, plainResult.stdout + plainResult.stderr)
        XCTAssertTrue(plainResult.stdout.contains(":status: 200"), plainResult.stdout)
        XCTAssertEqual(plainHandler.requests.first?.alpn, nil)
        XCTAssertEqual(plainHandler.opened.first?.isTLS, false)
    }

    func testH2Load100kRequestsOverTLSAllSucceed() async throws {
        let (server, _) = try await startServer()
        let result = try PeerProcess.run(
            "h2load",
            ["-n", "100000", "-c", "4", "-m", "100", "https://127.0.0.1:\(server.localPort)/"], timeout: 300)
        let summary = result.stdout.split(separator: "\n").first { $0.hasPrefix("requests:") }.map(String.init) ?? ""
        // requests: 100000 total, 100000 started, 100000 done, 100000 succeeded, 0 failed, 0 errored, 0 timeout
        XCTAssertTrue(summary.contains("100000 succeeded"), result.stdout)
        XCTAssertTrue(summary.contains(" 0 failed"), summary)
        XCTAssertTrue(summary.contains(" 0 errored"), summary)
        let statusLine = result.stdout.split(separator: "\n").first { $0.hasPrefix("status codes:") } ?? ""
        XCTAssertTrue(statusLine.contains("100000 2xx"), String(statusLine))
    }

    func testPythonH2WithoutALPNStillSpeaksHTTP2() async throws {
        let (server, handler) = try await startServer()
        let result = try PythonH2.run(mode: "noalpn", port: server.localPort, ca: pki.caPath)
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "status=200 alpn=None xalpn=none", result.stderr)
        XCTAssertNil(handler.requests.first?.alpn)
        XCTAssertEqual(handler.opened.first?.isTLS, true)
    }

    /// A field marked `valueIsUnique` enters the peer's HPACK table once (for its name) and arrives never-indexed
    /// after that, while an ordinary repeated field is indexed and reused as before. Decoded by Python's hpack.
    func testUniqueValuedHeaderIsIndexedOnceThenSentNeverIndexed() async throws {
        let (server, _) = try await startServer()
        let result = try PythonH2.run(mode: "hpack", port: server.localPort, ca: pki.caPath, extra: ["5"])
        XCTAssertEqual(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "kinds=HeaderTuple,NeverIndexedHeaderTuple,NeverIndexedHeaderTuple,NeverIndexedHeaderTuple,NeverIndexedHeaderTuple"
                           + " x-id-entries=1 x-same-entries=1", result.stderr)
    }

    func testMutualTLSHandsClientCertificateToHandler() async throws {
        let (server, handler) = try await startServer(requestClientCertificate: true)
        let result = try curl(server, extra: ["--cert", pki.clientCertPath, "--key", pki.clientKeyPath])
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), result.stdout + result.stderr)
        XCTAssertEqual(handler.requests.first?.peerCertificateDER, pki.clientCertificateDER)
        XCTAssertEqual(handler.opened.first?.peerCertificateDER, pki.clientCertificateDER)
        // Without a client certificate the handshake still succeeds; the handler sees none.
        let anonymous = try curl(server)
        XCTAssertTrue(anonymous.stdout.hasPrefix("HTTP/2 200"), anonymous.stdout + anonymous.stderr)
        XCTAssertTrue(anonymous.stdout.contains("x-cert-length: 0"), anonymous.stdout)
    }

    func testIPv6Loopback() async throws {
        let (server, handler) = try await startServer(host: "::1")
        let result = try curl(server, host: "[::1]")
        XCTAssertTrue(result.stdout.hasPrefix("HTTP/2 200"), result.stdout + result.stderr)
        XCTAssertTrue(handler.requests.first?.remoteAddress.hasPrefix("[::1]:") ?? false)
    }

    func testPortInUseIsAClearError() async throws {
        let (server, _) = try await startServer()
        var configuration = HTTP2ServerConfiguration(port: server.localPort, loopCount: 1)
        configuration.tls = pki.serverTLS()
        let second = try HTTP2Server(configuration: configuration, handler: TestHandler())
        do {
            try await second.start()
            XCTFail("a second server bound the port")
        } catch {
            XCTAssertEqual(error, .addressInUse(host: "127.0.0.1", port: server.localPort))
            XCTAssertTrue("\(error)".contains("port \(server.localPort)"))
        }
    }

    func testAnAddressNoInterfaceHasIsSaidInWords() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): no interface of a test machine has it, so bind fails with EADDRNOTAVAIL.
        let server = try HTTP2Server(configuration: HTTP2ServerConfiguration(host: "192.0.2.1", port: 0, loopCount: 1),
                                     handler: TestHandler())
        do {
            try await server.start()
            XCTFail("bound an address no interface has")
        } catch {
            XCTAssertEqual(error, .bindFailed(host: "192.0.2.1", port: 0, reason: "no interface has that address"))
        }
    }

    func testBadKeyIsAClearError() throws {
        let configuration = HTTP2ServerConfiguration(
            tls: TLSConfiguration(certificateChain: .file(pki.serverCertPath), privateKey: .file(pki.clientKeyPath)))
        XCTAssertThrowsError(try HTTP2Server(configuration: configuration, handler: TestHandler())) { error in
            XCTAssertTrue("\(error)".contains("private key does not match"), "\(error)")
        }
    }
}
