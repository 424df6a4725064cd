/// A request's header list read once: the first value of each header the device-push rules read, and whether a
/// header subject to `DuplicateHeaders` appears twice.
///
/// The rules would otherwise look each header up by name (a `String` comparison per header per lookup) and search
/// for duplicates by comparing names pairwise, at every request. Here each name's bytes are classified once: the
/// names APNs defines become a bit, so a repeat is a bit already set.
///
/// Exactness: when every name is ASCII, two names are equal as `String`s exactly when their bytes are, so the
/// answers are those of `HeaderRules.firstDuplicate(in:) != nil` and `APNsRequest.value(lowercaseName:)`. A list
/// holding a non-ASCII name (HTTP/2 stacks refuse them; the model does not assume it) is answered by those
/// functions themselves.
struct HeaderIndex {
    /// `apns-topic`.
    var topic: String?
    /// `apns-push-type`.
    var pushType: String?
    /// `apns-id`.
    var apnsID: String?
    /// `apns-expiration`.
    var expiration: String?
    /// `apns-priority`.
    var priority: String?
    /// `apns-collapse-id`.
    var collapseID: String?
    /// Whether a header that `DuplicateHeaders` applies to appears more than once.
    var hasDuplicate = false

    /// What a header name is to the rules. The first cases are the names APNs defines that the index tracks (each
    /// one bit of a set); the rest say how to treat any other name.
    enum Name: UInt8 {
        case authorization, topic, pushType, apnsID, expiration, priority, collapseID, contentType, contentLength
        /// Another `apns-*` or pseudo-header name, ASCII: subject to `DuplicateHeaders`, compared by bytes.
        case otherChecked
        /// An ASCII name `DuplicateHeaders` does not apply to (`user-agent`, `accept`…).
        case unchecked
        /// A name with a non-ASCII byte (or without contiguous bytes): the index defers to the `String` rules.
        case notASCII
    }

    /// Reads `headers` once.
    init(_ headers: [HeaderField]) {
        var seen: UInt16 = 0
        for position in headers.indices {
            let field = headers[position]
            let name = field.name.utf8.withContiguousStorageIfAvailable(Self.classify) ?? .notASCII
            switch name {
            case .unchecked:
                continue
            case .notASCII:
                self = Self(byStringRules: headers)
                return
            case .otherChecked:
                // Rare (an unknown `apns-*` name): compared with the earlier names, as `firstDuplicate` does. An
                // ASCII name equals only a name with the same bytes, which is also `otherChecked`.
                if !hasDuplicate, headers[..<position].contains(where: { $0.name == field.name }) { hasDuplicate = true }
                continue
            default:
                let bit: UInt16 = 1 << name.rawValue
                if seen & bit != 0 {
                    hasDuplicate = true
                    continue
                }
                seen |= bit
                switch name {
                case .topic: topic = field.value
                case .pushType: pushType = field.value
                case .apnsID: apnsID = field.value
                case .expiration: expiration = field.value
                case .priority: priority = field.value
                case .collapseID: collapseID = field.value
                default: break
                }
            }
        }
    }

    /// The index as the `String` rules give it, for a list with a non-ASCII name.
    private init(byStringRules headers: [HeaderField]) {
        func first(_ name: String) -> String? { headers.first(where: { $0.name == name })?.value }
        topic = first("apns-topic")
        pushType = first("apns-push-type")
        apnsID = first("apns-id")
        expiration = first("apns-expiration")
        priority = first("apns-priority")
        collapseID = first("apns-collapse-id")
        hasDuplicate = HeaderRules.firstDuplicate(in: headers) != nil
    }

    /// Classifies a header name's bytes. Checked names start with `a`, `:` or `c` (`isDuplicateChecked`).
    @inline(__always)
    static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> Name {
        guard let first = bytes.first else { return .unchecked }
        switch first {
        case UInt8(ascii: "a"):
            if ASCIIByte.hasPrefix(bytes, "apns-") {
                switch bytes.count {
                case 7: if ASCIIByte.equals(bytes, "apns-id") { return .apnsID }
                case 10: if ASCIIByte.equals(bytes, "apns-topic") { return .topic }
                case 13: if ASCIIByte.equals(bytes, "apns-priority") { return .priority }
                case 14: if ASCIIByte.equals(bytes, "apns-push-type") { return .pushType }
                case 15: if ASCIIByte.equals(bytes, "apns-expiration") { return .expiration }
                case 16: if ASCIIByte.equals(bytes, "apns-collapse-id") { return .collapseID }
                default: break
                }
                return ASCIIByte.isASCII(bytes) ? .otherChecked : .notASCII
            }
            if ASCIIByte.equals(bytes, "authorization") { return .authorization }
        case UInt8(ascii: ":"):
            return ASCIIByte.isASCII(bytes) ? .otherChecked : .notASCII
        case UInt8(ascii: "c"):
            if ASCIIByte.equals(bytes, "content-type") { return .contentType }
            if ASCIIByte.equals(bytes, "content-length") { return .contentLength }
        default:
            break
        }
        return ASCIIByte.isASCII(bytes) ? .unchecked : .notASCII
    }
}
