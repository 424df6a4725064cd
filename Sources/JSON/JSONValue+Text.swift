/// Writing `JSONValue` back out as JSON text.
///
/// Compact text is what recordings store and tests compare; pretty text is for people (`mockapns show`).
/// Both escape exactly what RFC 8259 requires (`"`, `\` and control characters) and leave other Unicode as is.
extension JSONValue {
    /// Compact JSON text. With `sortedKeys`, object members are written in key order (for stable comparison);
    /// otherwise in wire order, duplicates included.
    public func jsonText(sortedKeys: Bool = false) -> String {
        String(decoding: jsonBytes(sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// ``jsonText(sortedKeys:)`` as UTF-8 bytes, for a body or a payload sent as bytes.
    public func jsonBytes(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.initialCapacity)
        write(to: &out, sortedKeys: sortedKeys, pretty: false, level: 0)
        return out
    }

    /// Appends the compact text (``jsonBytes(sortedKeys:)``, keys in wire order) to `out`, for a document written
    /// around this value.
    public func appendJSON(to out: inout [UInt8]) {
        write(to: &out, sortedKeys: false, pretty: false, level: 0)
    }

    /// Indented JSON text (two spaces per level, `"key": value`), keys in wire order.
    public func prettyText() -> String {
        String(decoding: prettyBytes(), as: UTF8.self)
    }

    /// ``prettyText()`` as UTF-8 bytes.
    public func prettyBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.initialCapacity)
        write(to: &out, sortedKeys: false, pretty: true, level: 0)
        return out
    }

    /// What a text's buffer starts with: a record's answer or payload fits without growing it.
    private static let initialCapacity = 512

    private func write(to out: inout [UInt8], sortedKeys: Bool, pretty: Bool, level: Int) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .integer(let i): out += String(i).utf8
        case .double(let d): out += Self.numberText(d).utf8
        case .string(let s): JSONEscaping.append(s, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]".utf8; return }
            out.append(UInt8(ascii: "["))
            for (n, element) in elements.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, pretty: pretty, level: level + 1)
                element.write(to: &out, sortedKeys: sortedKeys, pretty: pretty, level: level + 1)
            }
            Self.newline(&out, pretty: pretty, level: level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out += "{}".utf8; return }
            let ordered = sortedKeys ? members.enumerated().sorted {
                $0.element.key == $1.element.key ? $0.offset < $1.offset : $0.element.key < $1.element.key
            }.map(\.element) : members
            out.append(UInt8(ascii: "{"))
            for (n, member) in ordered.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                Self.newline(&out, pretty: pretty, level: level + 1)
                JSONEscaping.append(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(to: &out, sortedKeys: sortedKeys, pretty: pretty, level: level + 1)
            }
            Self.newline(&out, pretty: pretty, level: level)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// In pretty text, a line break and two spaces per level.
    private static func newline(_ out: inout [UInt8], pretty: Bool, level: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// A finite double as JSON: Swift's shortest round-tripping form (`1.0`, `0.1`, `1e+20`), which is valid
    /// JSON and keeps a fraction visible so the value parses back as a double.
    static func numberText(_ d: Double) -> String {
        guard d.isFinite else { return "null" }  // JSON has no NaN or infinity; parse never produces them.
        return d.description
    }
}
