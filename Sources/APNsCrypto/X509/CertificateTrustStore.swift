import COpenSSL

/// The CA certificates that client certificates must chain to (the mock's "Apple" for mTLS).
///
/// `@unchecked Sendable`: the `X509_STORE` is filled in `init` and never changed afterwards. OpenSSL
/// guards a store's internals with its own lock and supports many concurrent `X509_verify_cert`
/// calls against one store (that is how every `SSL_CTX` uses it); each check has its own
/// `X509_STORE_CTX`.
public final class CertificateTrustStore: @unchecked Sendable {
    private let store: OpaquePointer

    /// Trusts every certificate in `caPEM` (one or more `-----BEGIN CERTIFICATE-----` blocks).
    public init(caPEM: String) throws(CryptoError) {
        let certificates = try X509Handle.decodeAll(pem: caPEM)
        guard let store = X509_STORE_new() else {
            throw .operationFailed(step: "create a certificate store", openSSL: OpenSSLErrorQueue.drain())
        }
        for certificate in certificates where X509_STORE_add_cert(store, certificate.pointer) != 1 {
            let detail = OpenSSLErrorQueue.drain()
            X509_STORE_free(store)
            throw .operationFailed(step: "add a CA certificate to the store", openSSL: detail)
        }
        self.store = store
    }

    deinit {
        X509_STORE_free(store)
    }

    /// True when `certificate` chains to a trusted CA, every certificate in the chain is valid at
    /// `time` (epoch seconds), and it is usable for TLS client authentication.
    public func isTrusted(_ certificate: APNsClientCertificate, at time: Int64) -> Bool {
        untrustedReason(certificate, at: time) == nil
    }

    /// Why `certificate` is not trusted at `time` (OpenSSL's verification message, e.g.
    /// "certificate has expired"), or nil when it is trusted.
    public func untrustedReason(_ certificate: APNsClientCertificate, at time: Int64) -> String? {
        guard let context = X509_STORE_CTX_new() else {
            return "cannot allocate a verification context: \(OpenSSLErrorQueue.drain())"
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, certificate.handle.pointer, nil) == 1 else {
            return "cannot start verification: \(OpenSSLErrorQueue.drain())"
        }
        X509_STORE_CTX_set_time(context, 0, time_t(time))
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_CLIENT)
        if X509_verify_cert(context) == 1 { return nil }
        let code = X509_STORE_CTX_get_error(context)
        OpenSSLErrorQueue.clear()
        return String(cString: X509_verify_cert_error_string(Int(code)))
    }
}
