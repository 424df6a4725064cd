/// Why a string is not a well-formed JWT (before any signature or claim is checked).
public enum JWTParseError: Error, Equatable, CustomStringConvertible {
    /// A JWT has exactly three dot-separated segments; this many were found.
    case wrongSegmentCount(Int)
    /// The header or claims segment is empty.
    case emptySegment(Segment)
    /// The segment holds a character outside the base64url alphabet, or has an impossible length.
    case invalidBase64URL(Segment)
    /// The segment decoded, but it is not a JSON object.
    case notJSONObject(Segment)

    /// The three parts of a JWT.
    public enum Segment: String, Sendable, Equatable {
        /// The JOSE header (first segment).
        case header
        /// The claims set (second segment).
        case claims
        /// The signature (third segment).
        case signature
    }

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case let .wrongSegmentCount(count):
            return "A JWT is three base64url segments joined by dots (header.claims.signature); this token has \(count)."
        case let .emptySegment(segment):
            return "The JWT \(segment.rawValue) segment is empty."
        case let .invalidBase64URL(segment):
            return "The JWT \(segment.rawValue) segment is not base64url (A–Z a–z 0–9 - _ without padding)."
        case let .notJSONObject(segment):
            return "The JWT \(segment.rawValue) segment does not decode to a JSON object."
        }
    }
}
