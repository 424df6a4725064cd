import Foundation
import HTTP2
import PeerSupport

/// A throwaway CA, a server certificate (SANs localhost, 127.0.0.1, ::1) and a client certificate,
/// made once per test process with the `openssl` CLI in a temp directory.
public struct TestPKI: Sendable {
    public let directory: String
    public var caPath: String { directory + "/ca.pem" }
    public var serverCertPath: String { directory + "/server.pem" }
    public var serverKeyPath: String { directory + "/server-key.pem" }
    public var clientCertPath: String { directory + "/client.pem" }
    public var clientKeyPath: String { directory + "/client-key.pem" }
    public var clientCertDERPath: String { directory + "/client.der" }

    public static let shared: TestPKI = {
        do {
            return try generate()
        } catch {
            fatalError("cannot generate test certificates with openssl: \(error)")
        }
    }()

    private static func generate() throws -> TestPKI {
        let directory = try TestDirectory.make("http2-pki")
        let openssl = try PeerProcess.resolve("openssl")
        func run(_ arguments: [String]) throws {
            let result = try PeerProcess.run(openssl, arguments, timeout: 60)
            guard result.status == 0 else {
                throw NSError(domain: "TestPKI", code: Int(result.status), userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.joined(separator: " ")): \(result.stderr)"])
            }
        }
        let d = directory
        try "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\nbasicConstraints=CA:FALSE\n".write(toFile: d + "/server.ext", atomically: true, encoding: .utf8)
        try "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n".write(toFile: d + "/client.ext", atomically: true, encoding: .utf8)
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", d + "/ca-key.pem",
                 "-out", d + "/ca.pem", "-days", "2", "-subj", "/CN=HTTP2 Test CA"])
        for name in ["server", "client"] {
            try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", d + "/\(name)-key.pem",
                     "-out", d + "/\(name).csr", "-subj", "/CN=\(name == "server" ? "localhost" : "HTTP2 Test Client")"])
            try run(["x509", "-req", "-in", d + "/\(name).csr", "-CA", d + "/ca.pem", "-CAkey", d + "/ca-key.pem",
                     "-CAcreateserial", "-out", d + "/\(name).pem", "-days", "2", "-extfile", d + "/\(name).ext"])
        }
        try run(["x509", "-in", d + "/client.pem", "-outform", "DER", "-out", d + "/client.der"])
        return TestPKI(directory: directory)
    }

    public var clientCertificateDER: [UInt8] { [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: clientCertDERPath))) ?? Data()) }
    public var caPEM: String { (try? String(contentsOfFile: caPath, encoding: .utf8)) ?? "" }

    /// Server TLS settings using these files; with `clientCA` the server requests a client certificate.
    public func serverTLS(requestClientCertificate: Bool = false) -> TLSConfiguration {
        TLSConfiguration(
            certificateChain: .file(serverCertPath), privateKey: .file(serverKeyPath),
            clientCA: requestClientCertificate ? .file(caPath) : nil)
    }
}
