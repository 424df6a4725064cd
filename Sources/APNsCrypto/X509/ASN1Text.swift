import COpenSSL
import Foundation

/// Reads ASN.1 strings and times through OpenSSL.
enum ASN1Text {
    /// Any ASN.1 string type (UTF8String, PrintableString, IA5String, BMPString, …) as Swift text.
    static func string(_ value: UnsafePointer<ASN1_STRING>) -> String? {
        var out: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&out, value)
        guard length >= 0, let out else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { copenssl_OPENSSL_free(out) }
        return String(decoding: UnsafeBufferPointer(start: out, count: Int(length)), as: UTF8.self)
    }

    /// True for the ASN.1 universal string types a topic or kind may be written in.
    static func isStringType(_ type: Int32) -> Bool {
        [V_ASN1_UTF8STRING, V_ASN1_PRINTABLESTRING, V_ASN1_IA5STRING, V_ASN1_T61STRING,
         V_ASN1_BMPSTRING, V_ASN1_UNIVERSALSTRING, V_ASN1_VISIBLESTRING].contains(type)
    }

    /// An ASN.1 UTCTime/GeneralizedTime as seconds since the Unix epoch (UTC).
    static func epochSeconds(_ time: UnsafePointer<ASN1_TIME>) -> Int64? {
        var broken = tm()
        guard ASN1_TIME_to_tm(time, &broken) == 1 else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return Int64(timegm(&broken))
    }

    /// An entry of an X.509 name (e.g. `NID_userId`, `NID_commonName`), first occurrence.
    static func nameEntry(_ name: OpaquePointer, nid: Int32) -> String? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
              let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        return string(data)
    }
}
