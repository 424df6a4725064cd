import APNsModel

/// Indented JSON that keeps the sender's key order (unlike `JSONSerialization`'s pretty printer).
enum JSONPrettyPrinter {
    /// `value` indented by two spaces a level, each line prefixed with `margin`.
    static func render(_ value: JSONValue, margin: String = "") -> String {
        var out = margin
        write(value, level: 0, margin: margin, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, level: Int, margin: String, into out: inout String) {
        let indent = margin + String(repeating: "  ", count: level + 1)
        let closing = margin + String(repeating: "  ", count: level)
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent
                write(item, level: level + 1, margin: margin, into: &out)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += closing + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += indent + JSONValue.string(member.key).jsonText() + ": "
                write(member.value, level: level + 1, margin: margin, into: &out)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += closing + "}"
        default:
            out += value.jsonText()
        }
    }
}
