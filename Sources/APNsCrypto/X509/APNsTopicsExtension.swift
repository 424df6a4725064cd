import COpenSSL

/// Reads the topics extension (`1.2.840.113635.100.6.3.6`) with OpenSSL's generic ASN.1 decoder.
///
/// Layout, as Apple writes it: SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, … }.
/// A topic not followed by a kind SEQUENCE gets an empty kind; other elements are skipped.
enum APNsTopicsExtension {
    /// The topics in the extension's content, in order.
    static func topics(in extensionData: UnsafePointer<ASN1_STRING>) throws(CryptoError) -> [APNsClientCertificate.Topic] {
        guard let elements = sequence(ASN1_STRING_get0_data(extensionData), Int(ASN1_STRING_length(extensionData))) else {
            throw .malformedCertificate(reason: "extension \(APNsCertificateOID.topics.rawValue) (topics) is not an ASN.1 SEQUENCE")
        }
        defer { copenssl_sk_ASN1_TYPE_pop_free(elements) }

        var topics: [APNsClientCertificate.Topic] = []
        let count = copenssl_sk_ASN1_TYPE_num(elements)
        var index: Int32 = 0
        while index < count {
            defer { index += 1 }
            guard let element = copenssl_sk_ASN1_TYPE_value(elements, index),
                  ASN1Text.isStringType(ASN1_TYPE_get(element)),
                  let nameString = element.pointee.value.asn1_string,
                  let name = ASN1Text.string(nameString) else { continue }
            var kind = ""
            if index + 1 < count, let next = copenssl_sk_ASN1_TYPE_value(elements, index + 1),
               ASN1_TYPE_get(next) == V_ASN1_SEQUENCE, let encoded = next.pointee.value.sequence {
                kind = firstString(inSequence: encoded) ?? ""
                index += 1
            }
            topics.append(.init(name: name, kind: kind))
        }
        return topics
    }

    /// The first string inside a DER SEQUENCE (held whole, tag included, by an ASN1_TYPE).
    private static func firstString(inSequence encoded: UnsafePointer<ASN1_STRING>) -> String? {
        guard let elements = sequence(ASN1_STRING_get0_data(encoded), Int(ASN1_STRING_length(encoded))) else {
            return nil
        }
        defer { copenssl_sk_ASN1_TYPE_pop_free(elements) }
        for index in 0..<copenssl_sk_ASN1_TYPE_num(elements) {
            if let element = copenssl_sk_ASN1_TYPE_value(elements, index),
               ASN1Text.isStringType(ASN1_TYPE_get(element)),
               let string = element.pointee.value.asn1_string {
                return ASN1Text.string(string)
            }
        }
        return nil
    }

    /// Decodes DER bytes as a SEQUENCE of arbitrary elements; the caller frees the stack.
    private static func sequence(_ bytes: UnsafePointer<UInt8>?, _ length: Int) -> OpaquePointer? {
        var cursor = bytes
        guard let stack = d2i_ASN1_SEQUENCE_ANY(nil, &cursor, length) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return stack
    }
}
