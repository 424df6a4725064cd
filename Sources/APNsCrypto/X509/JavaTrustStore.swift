import COpenSSL

/// A PKCS#12 trust store the JVM loads as it is (`-Djavax.net.ssl.trustStore=… -Djavax.net.ssl.trustStoreType=PKCS12`):
/// each certificate of a PEM bundle as a trusted-certificate entry.
///
/// The JDK's PKCS#12 key store keeps a certificate without a private key only when its bag carries Oracle's
/// trusted-key-usage attribute (OID 2.16.840.1.113894.746875.1.1, value anyExtendedKeyUsage), which `keytool
/// -importcert` writes and OpenSSL 3.0 does not; so the bags are made here with it. The store is not encrypted (it
/// holds public certificates only) and is integrity-protected with `password`, as the JVM expects.
public enum JavaTrustStore {
    /// The password `pkcs12(pem:)` uses unless told otherwise: the JDK's own default for trust stores.
    public static let defaultPassword = "changeit"

    /// A PKCS#12 file (DER) holding every certificate of `pem` as a trusted entry named `alias` (`alias-2`, … after
    /// the first).
    public static func pkcs12(pem: String, alias: String = "mockapns-ca", password: String = defaultPassword) throws(CryptoError) -> [UInt8] {
        let certificates = try X509Handle.decodeAll(pem: pem)
        guard let bags = copenssl_sk_PKCS12_SAFEBAG_new_null() else {
            throw .operationFailed(step: "a PKCS#12 bag list", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { copenssl_sk_PKCS12_SAFEBAG_pop_free(bags) }
        guard let anyUsage = OBJ_txt2obj("2.5.29.37.0", 1) else {
            throw .operationFailed(step: "the anyExtendedKeyUsage OID", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { ASN1_OBJECT_free(anyUsage) }
        for (index, certificate) in certificates.enumerated() {
            guard let bag = PKCS12_SAFEBAG_create_cert(certificate.pointer) else {
                throw .operationFailed(step: "a PKCS#12 certificate bag", openSSL: OpenSSLErrorQueue.drain())
            }
            guard copenssl_sk_PKCS12_SAFEBAG_push(bags, bag) > 0 else {
                PKCS12_SAFEBAG_free(bag)
                throw .operationFailed(step: "adding a PKCS#12 bag", openSSL: OpenSSLErrorQueue.drain())
            }
            let name = index == 0 ? alias : "\(alias)-\(index + 1)"
            // With length -1, OpenSSL takes the value as the ASN1_OBJECT itself (the attribute's type is an OID).
            let value = UnsafeRawPointer(anyUsage).assumingMemoryBound(to: UInt8.self)
            guard PKCS12_add_friendlyname_asc(bag, name, -1) == 1,
                  PKCS12_add1_attr_by_txt(bag, "2.16.840.1.113894.746875.1.1", V_ASN1_OBJECT, value, -1) == 1 else {
                throw .operationFailed(step: "the trusted-entry attributes", openSSL: OpenSSLErrorQueue.drain())
            }
        }
        var safes: OpaquePointer?
        guard PKCS12_add_safe(&safes, bags, -1, 0, nil) == 1, let safes else {
            throw .operationFailed(step: "the PKCS#12 safe", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { copenssl_sk_PKCS7_pop_free(safes) }
        guard let store = PKCS12_add_safes(safes, 0) else {
            throw .operationFailed(step: "the PKCS#12 store", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { PKCS12_free(store) }
        guard PKCS12_set_mac(store, password, -1, nil, 0, 10_000, nil) == 1 else {
            throw .operationFailed(step: "the PKCS#12 MAC", openSSL: OpenSSLErrorQueue.drain())
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS12(store, &out)
        guard length > 0, let out else {
            throw .operationFailed(step: "encoding the PKCS#12 store", openSSL: OpenSSLErrorQueue.drain())
        }
        defer { copenssl_OPENSSL_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
