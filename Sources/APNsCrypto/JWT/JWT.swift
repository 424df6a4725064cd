import JSON
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
        /// `iat` is present but is not a NumericDate this mock reads: null, a boolean, an object or array, a
        /// non-numeric string, a non-finite number, or a time outside what 64-bit seconds can hold.
        case invalid
        /// Epoch seconds, rounded down: from a JSON integer, a JSON number with a fraction, or a string holding
        /// either (some libraries send a string).
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
        guard let signature = Base64.decode(utf8[signatureStart...], alphabet: .url, padding: .optional) else {
            throw .invalidBase64URL(.signature)
        }

        return JWT(
            token: token,
            algorithm: header.object["alg"]?.stringValue,
            keyID: header.object["kid"]?.stringValue,
            type: header.object["typ"]?.stringValue,
            issuer: claims.object["iss"]?.stringValue,
            issuedAt: IssuedAt(claim: claims.object["iat"]),
            signingInput: Array(utf8[..<secondDot]),
            signature: signature,
            headerJSON: header.text,
            claimsJSON: claims.text
        )
    }

    private static func decodeObject(
        _ segment: Substring.UTF8View, _ which: JWTParseError.Segment
    ) throws(JWTParseError) -> (object: JSONValue, text: String) {
        guard !segment.isEmpty else { throw .emptySegment(which) }
        guard let bytes = Base64.decode(segment, alphabet: .url, padding: .optional) else { throw .invalidBase64URL(which) }
        // The project's own parser: integers stay integers, fractions stay fractions and booleans stay booleans, so a
        // claim's type is read from the JSON, not guessed from a number object.
        guard let object = try? JSONValue.parse(bytes), object.objectMembers != nil else {
            throw .notJSONObject(which)
        }
        return (object, String(decoding: bytes, as: UTF8.self))
    }
}

extension JWT.IssuedAt {
    /// Reads a decoded JSON value as an RFC 7519 NumericDate ("a JSON numeric value representing the number of
    /// seconds from 1970-01-01T00:00:00Z UTC … non-integer values can be represented"): integer → seconds;
    /// fraction → seconds rounded down (Python senders that sign with `time.time()` send one, and APNs accepts
    /// it); numeric string → the same, as some libraries send one (APNs-lenient, unverified); absent → missing;
    /// anything else, and any value outside Int64 seconds, → invalid. Nothing here does arithmetic on the value,
    /// so no claim can trap; the time rules (`JWTRules`) check their own subtraction.
    init(claim: JSONValue?) {
        switch claim {
        case nil:
            self = .missing
        case .integer(let seconds)?:
            self = .seconds(seconds)
        case .double(let value)?:
            // The parser reads an integer past Int64 (2^63 and up) as a fraction: no whole Int64 holds it, so invalid.
            self = Self.seconds(fromDouble: value)
        case .string(let text)?:
            self = Self.seconds(fromText: text.trimmingCharacters(in: .whitespaces))
        default:
            self = .invalid   // booleans, null, arrays, objects are no times
        }
    }

    private static func seconds(fromText text: String) -> Self {
        if let whole = Int64(text) { return .seconds(whole) }
        // Only JSON number syntax: Double("inf"), Double("nan") and Double("0x1p3") parse, but are no NumericDate.
        guard isJSONNumber(text), let value = Double(text) else { return .invalid }
        return seconds(fromDouble: value)
    }

    private static func seconds(fromDouble value: Double) -> Self {
        guard value.isFinite, let whole = Int64(exactly: value.rounded(.down)) else { return .invalid }
        return .seconds(whole)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, RFC 8259 §6.
    private static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                bytes = bytes.dropFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
