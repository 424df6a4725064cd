import JSON

/// Mints ES256 provider tokens, as an APNs sender does, and RS256 tokens, as a Google service account's grant.
public enum JWTSigner {
    /// How the signature segment is encoded.
    public enum SignatureForm: Sendable, Equatable {
        /// JWS standard: raw R‖S, 64 bytes (what client libraries send).
        case raw
        /// DER `ECDSA-Sig-Value` (what Apple's illustrative token appears to carry).
        case der
    }

    /// One header or claims value, written in the order given.
    public enum Value: Sendable, Equatable {
        /// A JSON string.
        case string(String)
        /// A JSON integer.
        case integer(Int64)
        /// JSON text inserted verbatim (e.g. `true`, `1.5`, `null`), for crafting odd tokens in tests.
        case json(String)
    }

    /// A standard APNs provider token: header `{"alg":"ES256","kid":keyID}`, claims
    /// `{"iss":teamID,"iat":issuedAt}`, raw R‖S signature.
    public static func makeToken(teamID: String, keyID: String, issuedAt: Int64, key: P256PrivateKey) throws(CryptoError) -> String {
        try makeToken(
            header: ["alg": .string("ES256"), "kid": .string(keyID)],
            claims: ["iss": .string(teamID), "iat": .integer(issuedAt)],
            key: key
        )
    }

    /// A token with exactly the given header and claims fields (in order), signed by `key` in
    /// `signatureForm`. For tests and tools that need unusual tokens (`typ`, string `iat`, extra fields).
    public static func makeToken(
        header: KeyValuePairs<String, Value>,
        claims: KeyValuePairs<String, Value>,
        key: P256PrivateKey,
        signatureForm: SignatureForm = .raw
    ) throws(CryptoError) -> String {
        let signingInput = signingInput(header: header, claims: claims)
        let bytes = Array(signingInput.utf8)
        let signature = switch signatureForm {
        case .raw: try key.signature(for: bytes)
        case .der: try key.derSignature(for: bytes)
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// A token with exactly the given header and claims fields (in order), signed RS256 by `key`. The header is
    /// written as given: google-auth writes `{"typ":"JWT","alg":"RS256","kid":private_key_id}`.
    public static func makeToken(
        header: KeyValuePairs<String, Value>,
        claims: KeyValuePairs<String, Value>,
        key: RSAPrivateKey
    ) throws(CryptoError) -> String {
        let signingInput = signingInput(header: header, claims: claims)
        return signingInput + "." + Base64URL.encode(try key.signRS256(Array(signingInput.utf8)))
    }

    /// `base64url(header) "." base64url(claims)`: what the signature covers.
    static func signingInput(header: KeyValuePairs<String, Value>, claims: KeyValuePairs<String, Value>) -> String {
        Base64URL.encode(Array(jsonObject(header).utf8)) + "." + Base64URL.encode(Array(jsonObject(claims).utf8))
    }

    /// The JSON object text of `fields`, in order.
    static func jsonObject(_ fields: KeyValuePairs<String, Value>) -> String {
        var text = "{"
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            text += JSONEscaping.quoted(field.key)
            text += ":"
            switch field.value {
            case let .string(value): text += JSONEscaping.quoted(value)
            case let .integer(value): text += String(value)
            case let .json(value): text += value
            }
        }
        return text + "}"
    }
}
