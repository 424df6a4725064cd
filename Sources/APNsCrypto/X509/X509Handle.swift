import COpenSSL

/// Owns one OpenSSL `X509` and frees it when the last reference goes.
///
/// `@unchecked Sendable` because the certificate is never modified after `init`. OpenSSL computes
/// some extension data lazily on first use (under its own lock); `init` forces that computation
/// with `X509_check_purpose`, so later readers on any thread only read.
final class X509Handle: @unchecked Sendable {
    /// The owned `X509 *`; never handed out of this module.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
        _ = X509_check_purpose(pointer, -1, 0)
        OpenSSLErrorQueue.clear()
    }

    deinit {
        X509_free(pointer)
    }

    /// Decodes one DER certificate; the whole input must be consumed.
    static func decode(der: [UInt8]) throws(CryptoError) -> X509Handle {
        var consumed = 0
        let pointer = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            if let cursor { consumed = cursor - start }
            return certificate
        }
        guard let pointer else {
            throw .invalidDER(expected: "X.509 certificate", openSSL: OpenSSLErrorQueue.drain())
        }
        let handle = X509Handle(taking: pointer)
        guard consumed == der.count else {
            throw .invalidDER(expected: "X.509 certificate", openSSL: "\(der.count - consumed) bytes follow the certificate")
        }
        return handle
    }

    /// Every certificate in a PEM bundle, in order; throws if there is none or one is malformed.
    static func decodeAll(pem: String) throws(CryptoError) -> [X509Handle] {
        let result = MemoryBIO.reading(pem) { bio -> Result<[X509Handle], CryptoError> in
            var handles: [X509Handle] = []
            while let pointer = PEM_read_bio_X509(bio, nil, nil, nil) {
                handles.append(X509Handle(taking: pointer))
            }
            // The loop ends with "no start line" at the end of input; anything else is a real error.
            let last = ERR_peek_last_error()
            if ERR_GET_REASON(last) == PEM_R_NO_START_LINE || last == 0 {
                OpenSSLErrorQueue.clear()
            } else {
                return .failure(.invalidPEM(expected: "certificate", openSSL: OpenSSLErrorQueue.drain()))
            }
            return handles.isEmpty ? .failure(.noCertificates) : .success(handles)
        }
        switch result {
        case let .success(handles)?: return handles
        case let .failure(error)?: throw error
        case nil: throw .operationFailed(step: "allocate a memory BIO", openSSL: OpenSSLErrorQueue.drain())
        }
    }

    /// The certificate as DER.
    var derRepresentation: [UInt8]? {
        DEREncoding.encode { i2d_X509(pointer, $0) }
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    var pemRepresentation: String? {
        MemoryBIO.writingText { PEM_write_bio_X509($0, pointer) == 1 }
    }
}

extension X509Handle {
    /// True when the certificate's names cover `host` (a DNS name or an IP literal).
    func matches(host: String) -> Bool {
        let result = host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." })
            ? X509_check_ip_asc(pointer, host, 0)
            : X509_check_host(pointer, host, host.utf8.count, 0, nil)
        OpenSSLErrorQueue.clear()
        return result == 1
    }
}

extension X509Handle {
    /// True when `key` is the private half of the certificate's public key.
    func matches(privateKey key: P256PrivateKey) -> Bool {
        let result = X509_check_private_key(pointer, key.key.pointer)
        OpenSSLErrorQueue.clear()
        return result == 1
    }
}
