import COpenSSL

/// Converts ECDSA P-256 signatures between the JWS form (raw R‖S) and DER `ECDSA-Sig-Value`.
enum ECDSASignature {
    /// Bytes in one P-256 scalar.
    static let scalarLength = 32
    /// Bytes in a raw R‖S signature.
    static let rawLength = 64
    /// Upper bound of a DER P-256 signature (SEQUENCE of two INTEGERs of up to 33 bytes).
    static let maximumDERLength = 72

    /// The DER form of a 64-byte R‖S signature, or nil if `raw` is not 64 bytes.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawLength, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (BN_bin2bn(buffer.baseAddress, Int32(scalarLength), nil),
             BN_bin2bn(buffer.baseAddress! + scalarLength, Int32(scalarLength), nil))
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            OpenSSLErrorQueue.clear()
            return nil
        }
        return DEREncoding.encode { i2d_ECDSA_SIG(signature, $0) }
    }

    /// The 64-byte R‖S form of a DER signature, or nil if it is not a P-256 `ECDSA-Sig-Value`.
    static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: rawLength)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(r, buffer.baseAddress, Int32(scalarLength)),
             BN_bn2binpad(s, buffer.baseAddress! + scalarLength, Int32(scalarLength)))
        }
        guard written.0 == Int32(scalarLength), written.1 == Int32(scalarLength) else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        return raw
    }
}
