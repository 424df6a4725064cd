/// The format rules for APNs request headers. Each function answers `nil` when the header is acceptable.
public enum HeaderRules {
    /// The longest `apns-collapse-id`, in UTF-8 bytes.
    public static let maximumCollapseIDBytes = 64

    /// The first header, in wire order, that appears more than once and is subject to `DuplicateHeaders`.
    ///
    /// Apple says "repeating any header". We apply it to the headers APNs defines or reads (`authorization`,
    /// every `apns-*`, `content-type`, `content-length`) and to pseudo-headers, and not to generic HTTP
    /// headers (`user-agent`, `accept`, `cookie`…): HTTP/2 stacks may legitimately split or repeat those, and
    /// whether APNs counts them is not documented, so the lenient reading is to let them through.
    public static func firstDuplicate(in headers: [HeaderField]) -> String? {
        if headers.count <= smallHeaderCount { return firstDuplicateBySearch(in: headers) }
        var seen = Set<String>()
        for field in headers where isDuplicateChecked(field.name) {
            if !seen.insert(field.name).inserted { return field.name }
        }
        return nil
    }

    /// Up to this many headers, `firstDuplicate` compares each checked name with the earlier ones instead of
    /// hashing every name into a set: fewer operations and no allocation for a typical request (5–10 headers).
    static let smallHeaderCount = 16

    /// `firstDuplicate` for a few headers: the first checked name equal to an earlier one.
    private static func firstDuplicateBySearch(in headers: [HeaderField]) -> String? {
        for index in headers.indices where isDuplicateChecked(headers[index].name) {
            let name = headers[index].name
            for earlier in headers[..<index] where earlier.name == name { return name }
        }
        return nil
    }

    /// Whether a repeat of header `name` (lowercase) is a `DuplicateHeaders` error.
    public static func isDuplicateChecked(_ name: String) -> Bool {
        // Every checked name starts with `a`, `:` or `c` (no other first byte can begin a Character equal to those).
        guard let first = name.utf8.first,
              first == UInt8(ascii: "a") || first == UInt8(ascii: ":") || first == UInt8(ascii: "c") else { return false }
        if ASCIIByte.isASCII(name) {
            return ASCIIByte.hasPrefix(name, "apns-") || ASCIIByte.hasPrefix(name, ":") || name == "authorization"
                || name == "content-type" || name == "content-length"
        }
        return name.hasPrefix("apns-") || name.hasPrefix(":") || name == "authorization" || name == "content-type"
            || name == "content-length"
    }

    /// Whether `value` is a canonical UUID: 32 hex digits grouped 8-4-4-4-12 with hyphens.
    ///
    /// Apple documents lowercase. Whether APNs refuses upper case is not documented, so we accept either case
    /// (lenient); the digits and hyphen positions are strict.
    public static func isCanonicalUUID(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard ASCIIByte.isHexDigit(byte) else { return false }
            }
        }
        return true
    }

    /// `apns-id`: absent is fine (APNs makes one); otherwise a canonical UUID, else `BadMessageId`.
    public static func checkAPNsID(_ value: String?) -> APNsReason? {
        guard let value else { return nil }
        return isCanonicalUUID(value) ? nil : .badMessageId
    }

    /// Parses `apns-expiration`: decimal digits only (no sign, no spaces), fitting `Int64`; `0` means "do not
    /// store". `nil` when invalid. A time already in the past is accepted: expiry is best effort.
    public static func parseExpiration(_ value: String) -> Int64? {
        let bytes = value.utf8
        guard !bytes.isEmpty else { return nil }
        var result: Int64 = 0
        for byte in bytes {
            guard ASCIIByte.isDecimalDigit(byte) else { return nil }
            let (m, o1) = result.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(byte - 0x30))
            if o1 || o2 { return nil }
            result = a
        }
        return result
    }

    /// Parses `apns-priority`: decimal digits whose value is 10, 5 or 1 (so `05` is read as 5). `nil` when not.
    public static func parsePriority(_ value: String) -> Priority? {
        // The spellings senders use, each one word comparison; anything else is read digit by digit.
        switch value {
        case "10": return .immediate
        case "5": return .considerPower
        default: break
        }
        let bytes = value.utf8
        guard !bytes.isEmpty, bytes.count <= 4 else { return nil }
        var number = 0
        for byte in bytes {
            guard ASCIIByte.isDecimalDigit(byte) else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))  // at most 9999: no overflow
        }
        return Priority(rawValue: number)
    }

    /// The priority rule for a device push: a bad value → `BadPriority`; `10` on a `background` push →
    /// `BadPriority` (Apple: background pushes must use 5). `1` is accepted for every type, `background`
    /// included: which types accept it is not documented, so we take the lenient reading.
    public static func checkPriority(_ value: String?, pushType: PushType) -> Result<Priority, APNsReason> {
        guard let value else { return .success(defaultPriority(for: pushType)) }
        guard let priority = parsePriority(value) else { return .failure(.badPriority) }
        if pushType == .background && priority == .immediate { return .failure(.badPriority) }
        return .success(priority)
    }

    /// The priority APNs assumes without an `apns-priority` header: 10, except 5 for `background`. Apple
    /// documents 10 as the default and 10 as an error for background pushes; real senders routinely omit the
    /// header on background pushes and those are delivered, so we read the default as 5 there (lenient).
    public static func defaultPriority(for pushType: PushType) -> Priority {
        pushType == .background ? .considerPower : .default
    }

    /// `apns-collapse-id`: at most 64 UTF-8 bytes, else `BadCollapseId`. An empty value is accepted.
    public static func checkCollapseID(_ value: String?) -> APNsReason? {
        guard let value else { return nil }
        return value.utf8.count > maximumCollapseIDBytes ? .badCollapseId : nil
    }

    /// Parses `apns-push-type` on a device push: one of the eleven values, exactly as Apple spells them
    /// (lowercase). Only the broadcast API has a spelling dispute, handled by `isLiveActivityPushType`.
    public static func parsePushType(_ value: String) -> PushType? {
        // A `switch` on the literals compares the header with each spelling directly (an equal short string is
        // one word comparison); `PushType(rawValue:)` searches a table of `StaticString`s for the same answer.
        switch value {
        case "alert": return .alert
        case "background": return .background
        case "location": return .location
        case "voip": return .voip
        case "complication": return .complication
        case "fileprovider": return .fileprovider
        case "mdm": return .mdm
        case "liveactivity": return .liveactivity
        case "pushtotalk": return .pushtotalk
        case "widgets": return .widgets
        case "controls": return .controls
        default: return PushType(rawValue: value)  // none of the above: nil, unless a new case was added
        }
    }

    /// Whether a broadcast request's `apns-push-type` names Live Activities. Apple's pages spell it
    /// `Liveactivity`, `liveactivity` and `LiveActivity`; we accept any letter case (lenient).
    public static func isLiveActivityPushType(_ value: String) -> Bool {
        value.lowercased() == "liveactivity"
    }
}
