import COpenSSL

/// Apple's object identifiers for APNs client certificate extensions.
enum APNsCertificateOID: String, CaseIterable {
    /// Development (sandbox) pushes allowed; content is ASN.1 NULL.
    case development = "1.2.840.113635.100.6.3.1"
    /// Production pushes allowed; content is ASN.1 NULL.
    case production = "1.2.840.113635.100.6.3.2"
    /// Topic list: SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, … }.
    case topics = "1.2.840.113635.100.6.3.6"

    /// The extension with this OID in `certificate`, or nil when absent.
    func find(in certificate: OpaquePointer) -> OpaquePointer? {
        guard let object = OBJ_txt2obj(rawValue, 1) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(certificate, object, -1)
        guard index >= 0 else { return nil }
        return X509_get_ext(certificate, index)
    }
}

extension APNsCertificateOID {
    /// The DER content of this extension in `certificate`, or nil when absent.
    func contents(in certificate: OpaquePointer) -> [UInt8]? {
        guard let found = find(in: certificate), let data = X509_EXTENSION_get_data(found),
              let bytes = ASN1_STRING_get0_data(data) else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))))
    }
}
