import Foundation

/// A provider token split and decoded, but not yet trusted: nothing here says the signature is
/// valid (see `JWTVerifier`) or that the claims follow APNs's rules (that is `APNsModel`'s job).
public struct JWT: Sendable, Equatable {
    /// The token exactly as received.
    public let token: String
    /// Header `alg`, if it is a string (APNs accepts only `ES256`).
    public let algorithm: String?
    /// Header `kid`, the 10-character key ID, if it is a string.
    public let keyID: String?
    /// Header `typ`, if it is a string (some libraries send `JWT`).
    public let type: String?
    /// Claims `iss`, the 10-character team ID, if it is a string.
    public let issuer: String?
    /// Claims `iat`, the issue time.
    public let issuedAt: IssuedAt
    /// The bytes the signature covers: the ASCII of `header.claims`.
    public let signingInput: [UInt8]
    /// The decoded signature segment (raw R‖S, DER, or anything else the sender put there).
    public let signature: [UInt8]
    /// The decoded header, as text, for display.
    public let headerJSON: String
    /// The decoded claims, as text, for display.
    public let claimsJSON: String

    /// The claims `iat` value as found.
    public enum IssuedAt: Sendable, Equatable {
        /// No `iat` claim.
        case missing
        /// `iat` is present but is not a whole number of seconds (e.g. junk text, `true`, `1.5`, null).
        case invalid
        /// Epoch seconds, from a JSON integer or a string holding one (some libraries send a string).
        case seconds(Int64)
    }

    /// Splits `token` into its three segments and decodes header and claims.
    ///
    /// Accepts any algorithm (`alg` is reported, not judged) and an empty signature segment
    /// (unsigned tokens), so callers can say precisely what is wrong with a token.
    public static func parse(_ token: String) throws(JWTParseError) -> JWT {
        let utf8 = token.utf8
        let dot = UInt8(ascii: ".")
        guard let firstDot = utf8.firstIndex(of: dot) else {
            throw .wrongSegmentCount(1)
        }
        let claimsStart = utf8.index(after: firstDot)
        guard let secondDot = utf8[claimsStart...].firstIndex(of: dot) else {
            throw .wrongSegmentCount(2)
        }
        let signatureStart = utf8.index(after: secondDot)
        if utf8[signatureStart...].contains(dot) {
            throw .wrongSegmentCount(utf8.reduce(1) { $0 + ($1 == dot ? 1 : 0) })
        }

        let header = try decodeObject(utf8[..<firstDot], .header)
        let claims = try decodeObject(utf8[claimsStart..<secondDot], .claims)
        guard let signature = Base64URL.decode(utf8[signatureStart...]) else {
            throw .invalidBase64URL(.signature)
        }

        return JWT(
            token: token,
            algorithm: header.object["alg"] as? String,
            keyID: header.object["kid"] as? String,
            type: header.object["typ"] as? String,
            issuer: claims.object["iss"] as? String,
            issuedAt: IssuedAt(claim: claims.object["iat"]),
            signingInput: Array(utf8[..<secondDot]),
            signature: signature,
            headerJSON: header.text,
            claimsJSON: claims.text
        )
    }

    private static func decodeObject(
        _ segment: Substring.UTF8View, _ which: JWTParseError.Segment
    ) throws(JWTParseError) -> (object: [String: Any], text: String) {
        guard !segment.isEmpty else { throw .emptySegment(which) }
        guard let bytes = Base64URL.decode(segment) else { throw .invalidBase64URL(which) }
        let data = Data(bytes)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .notJSONObject(which)
        }
        return (object, String(decoding: bytes, as: UTF8.self))
    }
}

extension JWT.IssuedAt {
    /// Reads a decoded JSON value: integer → seconds; numeric string → seconds; absent → missing;
    /// anything else (booleans, fractions, out-of-range numbers, other strings, null) → invalid.
    init(claim: Any?) {
        switch claim {
        case nil:
            self = .missing
        case let number as NSNumber:
            self = Self.seconds(from: number)
        case let text as String:
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            self = Int64(trimmed).map { .seconds($0) } ?? .invalid
        default:
            self = .invalid
        }
    }

    private static let booleanType = type(of: NSNumber(value: true))

    private static func seconds(from number: NSNumber) -> Self {
        // JSONSerialization gives booleans as NSNumber too; they are not times.
        if type(of: number) == booleanType { return .invalid }
        let kind = String(cString: number.objCType)
        if kind == "d" || kind == "f" {
            let value = number.doubleValue
            guard value.isFinite, value == value.rounded(),
                  let whole = Int64(exactly: value) else { return .invalid }
            return .seconds(whole)
        }
        return .seconds(number.int64Value)
    }
}
