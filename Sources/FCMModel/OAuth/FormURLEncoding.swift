/// `application/x-www-form-urlencoded` bodies (WHATWG URL standard, as RFC 6749 §4.5 and the JWT-bearer grant of
/// RFC 7523 use them): `name=value` pairs joined by `&`, `+` for a space, `%XX` for any byte (fcm-rules §2.1).
public enum FormURLEncoding {
    /// One `name=value` pair, decoded.
    public struct Field: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value (empty for `name` or `name=`).
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields of `body` in order, empty pieces (`a=1&&b=2`) skipped; `nil` when a `%` is not followed by two hex
    /// digits or a decoded name or value is not UTF-8.
    public static func decode(_ body: some Collection<UInt8>) -> [Field]? {
        var fields: [Field] = []
        for piece in Array(body).split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = piece.firstIndex(of: UInt8(ascii: "="))
            guard let name = unescape(piece[..<(equals ?? piece.endIndex)]) else { return nil }
            let value = equals.map { unescape(piece[piece.index(after: $0)...]) } ?? ""
            guard let value else { return nil }
            fields.append(Field(name: name, value: value))
        }
        return fields
    }

    /// `text` encoded for a form: letters, digits and `*-._` as they are, a space as `+`, any other byte `%XX`.
    public static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    private static func unescape(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
