import COpenSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An OpenSSL `SSL_CTX` for one client connection: trust roots, optional client certificate, ALPN.
// @unchecked Sendable: configured in init, then only used by `makeSSL` (SSL_new is thread-safe on a
// configured context). The pointer never leaves this type except inside the SSL it creates.
final class TLSClientContext: @unchecked Sendable {
    private let context: OpaquePointer
    let configuration: TLSClientConfiguration

    init(configuration: TLSClientConfiguration) throws(HTTP2Error) {
        self.configuration = configuration
        let context = try makeSSLContext(method: TLS_client_method(), minimumVersion: configuration.minimumVersion)
        self.context = context

        if configuration.verifyCertificate {
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if let roots = configuration.trustRoots {
                let pem = try roots.load(what: "trust roots")
                let store = SSL_CTX_get_cert_store(context)
                for certificate in try readCertificates(pem: pem, what: "trust roots") {
                    _ = X509_STORE_add_cert(store, certificate)
                    X509_free(certificate)
                }
            } else {
                _ = SSL_CTX_set_default_verify_paths(context)
            }
        } else {
            SSL_CTX_set_verify(context, copenssl_SSL_VERIFY_NONE(), nil)
        }

        if let chain = configuration.certificateChain {
            guard let keySource = configuration.privateKey else {
                throw .tls("a client certificate needs its private key (TLSClientConfiguration.privateKey)")
            }
            let certificates = try readCertificates(pem: try chain.load(what: "client certificate"), what: "client certificate")
            guard SSL_CTX_use_certificate(context, certificates[0]) == 1 else {
                certificates.forEach { X509_free($0) }
                throw .tls("the client certificate was rejected: \(drainOpenSSLErrors())")
            }
            X509_free(certificates[0])
            for intermediate in certificates.dropFirst() where copenssl_SSL_CTX_add0_chain_cert(context, intermediate) != 1 {
                X509_free(intermediate)
            }
            let key = try readPrivateKey(pem: try keySource.load(what: "client key"), what: "client key")
            defer { EVP_PKEY_free(key) }
            guard SSL_CTX_use_PrivateKey(context, key) == 1, SSL_CTX_check_private_key(context) == 1 else {
                throw .tls("the client key does not match the client certificate: \(drainOpenSSLErrors())")
            }
        }
        ERR_clear_error()
    }

    deinit { SSL_CTX_free(context) }

    /// A client SSL with memory BIOs, SNI, hostname check and ALPN set for `host`.
    func makeSSL(host: String) -> (ssl: OpaquePointer, input: OpaquePointer, output: OpaquePointer)? {
        guard let made = makeMemoryBIOSSL(context: context) else { return nil }
        let ssl = made.ssl
        SSL_set_connect_state(ssl)

        let name = configuration.serverName ?? host
        let isIPAddress = name.contains(":") || name.allSatisfy { $0.isNumber || $0 == "." }
        if !isIPAddress {
            _ = copenssl_SSL_set_tlsext_host_name(ssl, name)
        }
        if configuration.verifyCertificate && configuration.verifyHostname {
            if isIPAddress {
                _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
            } else {
                _ = SSL_set1_host(ssl, name)
            }
        }
        if !configuration.applicationProtocols.isEmpty {
            var wire: [UInt8] = []
            for proto in configuration.applicationProtocols {
                let bytes = Array(proto.utf8)
                wire.append(UInt8(bytes.count))
                wire.append(contentsOf: bytes)
            }
            _ = SSL_set_alpn_protos(ssl, wire, UInt32(wire.count))
        }
        return made
    }
}

/// Why verification failed, in words (empty when it did not).
func verifyFailureReason(ssl: OpaquePointer) -> String {
    let result = SSL_get_verify_result(ssl)
    guard result != 0 else { return "" }
    return String(cString: X509_verify_cert_error_string(result))
}
