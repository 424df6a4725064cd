/// Writing `JSONValue` back out as JSON text.
///
/// Compact text is what recordings store and tests compare; pretty text is for people (`mockapns show`).
/// Both escape exactly what RFC 8259 requires (`"`, `\` and control characters) and leave other Unicode as is.
extension JSONValue {
    /// Compact JSON text. With `sortedKeys`, object members are written in key order (for stable comparison);
    /// otherwise in wire order, duplicates included.
    public func jsonText(sortedKeys: Bool = false) -> String {
        var out = ""
        write(to: &out, sortedKeys: sortedKeys, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text (two spaces per level, `"key": value`), keys in wire order.
    public func prettyText() -> String {
        var out = ""
        write(to: &out, sortedKeys: false, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, sortedKeys: Bool, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d): out += Self.numberText(d)
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "["
            for (n, element) in elements.enumerated() {
                if n > 0 { out += "," }
                Self.newline(&out, indent: indent, level: level + 1)
                element.write(to: &out, sortedKeys: sortedKeys, indent: indent, level: level + 1)
            }
            Self.newline(&out, indent: indent, level: level)
            out += "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            let ordered = sortedKeys ? members.enumerated().sorted {
                $0.element.key == $1.element.key ? $0.offset < $1.offset : $0.element.key < $1.element.key
            }.map(\.element) : members
            out += "{"
            for (n, member) in ordered.enumerated() {
                if n > 0 { out += "," }
                Self.newline(&out, indent: indent, level: level + 1)
                Self.writeString(member.key, to: &out)
                out += indent == nil ? ":" : ": "
                member.value.write(to: &out, sortedKeys: sortedKeys, indent: indent, level: level + 1)
            }
            Self.newline(&out, indent: indent, level: level)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, indent: String?, level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    /// A finite double as JSON: Swift's shortest round-tripping form (`1.0`, `0.1`, `1e+20`), which is valid
    /// JSON and keeps a fraction visible so the value parses back as a double.
    static func numberText(_ d: Double) -> String {
        guard d.isFinite else { return "null" }  // JSON has no NaN or infinity; parse never produces them.
        return d.description
    }

    /// Writes `s` as a JSON string literal (`JSONEscaping`).
    static func writeString(_ s: String, to out: inout String) {
        out += JSONEscaping.quoted(s)
    }
}
