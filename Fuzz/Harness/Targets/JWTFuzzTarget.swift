import APNsCrypto
import APNsModel
import MockAPNs

/// JWT parsing and verification, then APNs's claim, time and connection rules on what was found.
///
/// Input: first byte 0 → the rest is the token text as sent. Otherwise the rest is
/// `HEADER-JSON \n CLAIMS-JSON \n SIGNATURE`, which the target base64url-encodes into a token (so mutations reach
/// the JSON inside rather than breaking the encoding); an odd first byte signs it with the trusted TESTKEY001
/// (so tokens get past the signature to the time rules), an even one uses the third part as signature bytes.
public enum JWTFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        let token: String
        if mode == 0 {
            token = String(decoding: rest, as: UTF8.self)
        } else {
            let parts = rest.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
            let header = parts.first.map(Array.init) ?? []
            let claims = parts.count > 1 ? Array(parts[1]) : []
            let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
            if mode & 1 == 1 {
                let signature = (try? FuzzCredentials.signingKey.signature(for: Array(signingInput.utf8))) ?? []
                token = signingInput + "." + Base64URL.encode(signature)
            } else {
                token = signingInput + "." + Base64URL.encode(parts.count > 2 ? Array(parts[2]) : [])
            }
        }

        if let jwt = try? JWT.parse(token) {
            for entry in FuzzCredentials.keys.keys.values {
                _ = JWTVerifier.isSignatureValid(jwt, key: entry.publicKey)
            }
        }
        for trustAny in [false, true] {
            let authenticator = ProviderTokenAuthenticator(keys: FuzzCredentials.keys, trustAnySignature: trustAny)
            let credential = authenticator.credential(authorization: "bearer " + token)
            var connection = TokenConnectionState()
            // The same token now, again later on the same connection, and at the edges of the time rules.
            for offset in [0, 1, JWTRules.maximumAge, TokenConnectionState.minimumTokenInterval + 1] as [Int64] {
                for environment in APNsEnvironment.allCases {
                    let context = DecisionContext(environment: environment, credential: credential,
                                                  now: FuzzCredentials.now + offset)
                    if RequestDecider.authenticate(context, connection: &connection) == nil {
                        connection.recordSuccess()
                    }
                }
            }
        }
    }
}
