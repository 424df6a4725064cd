#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// PEM text, given inline or as a file path (files are read once, when the server is created).
public enum PEMSource: Sendable, Hashable {
    /// A path to a PEM file.
    case file(String)
    /// PEM text itself.
    case string(String)

    /// The PEM text, reading the file if needed.
    func load(what: String) throws(HTTP2Error) -> String {
        switch self {
        case let .string(text):
            return text
        case let .file(path):
            guard let file = fopen(path, "rb") else {
                throw .tls("cannot read \(what) file \(path): \(String(cString: strerror(errno)))")
            }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let n = fread(&chunk, 1, chunk.count, file)
                if n <= 0 { break }
                bytes.append(contentsOf: chunk[0..<n])
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// The lowest TLS version a server or client accepts.
public enum TLSVersion: Sendable, Hashable {
    /// TLS 1.2 (APNs's floor).
    case tls12
    /// TLS 1.3.
    case tls13
}

/// Server-side TLS: certificate chain, key, and optional client-certificate request.
public struct TLSConfiguration: Sendable {
    /// Server certificate, followed by any intermediates (PEM).
    public var certificateChain: PEMSource
    /// The server certificate's private key (PEM).
    public var privateKey: PEMSource
    /// When set, the server requests a client certificate and names these CAs in the request.
    /// Any certificate (or none) is accepted: the handler decides trust from `peerCertificateDER`.
    public var clientCA: PEMSource?
    /// Request a client certificate even without `clientCA` (empty CA list in the request).
    public var requestClientCertificate: Bool
    /// Lowest accepted protocol version.
    public var minimumVersion: TLSVersion

    /// Creates a server TLS configuration.
    public init(
        certificateChain: PEMSource, privateKey: PEMSource, clientCA: PEMSource? = nil,
        requestClientCertificate: Bool = false, minimumVersion: TLSVersion = .tls12
    ) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.clientCA = clientCA
        self.requestClientCertificate = requestClientCertificate
        self.minimumVersion = minimumVersion
    }

    /// Convenience: certificate chain and key from PEM files; client CA PEM text, if any.
    public init(certificateChainFile: String, privateKeyFile: String, clientCAPEM: String? = nil) {
        self.init(
            certificateChain: .file(certificateChainFile), privateKey: .file(privateKeyFile),
            clientCA: clientCAPEM.map { .string($0) })
    }
}
