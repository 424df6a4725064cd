import APNsModel

/// Writes a JSON document whose one long array is produced element by element, byte for byte as
/// `JSONValue.jsonText()` / `prettyText()` would write the whole document: `list --json` and `export --format har`
/// print a recording of any size without building it in memory.
///
/// The text around the array is taken from the document itself, rendered once with a marker element and once with
/// an empty array, so it cannot drift from the writer's formatting.
struct JSONArrayStream {
    /// Everything before the first element (for pretty text, including its indentation).
    let head: String
    /// Between two elements.
    let separator: String
    /// Everything after the last element.
    let tail: String
    /// The whole document when the array is empty.
    let empty: String
    /// Indented (`prettyText`) rather than compact (`jsonText`).
    let pretty: Bool
    /// What a line break inside an element becomes (pretty text only).
    private let lineBreak: [UInt8]

    /// The stream for the document `document(array)` makes around the array.
    init(pretty: Bool, document: (JSONValue) -> JSONValue) {
        let marker = "mockapns-array-stream-marker-7d3f9a"
        let render: (JSONValue) -> String = { pretty ? $0.prettyText() : $0.jsonText() }
        let full = render(document(.array([.string(marker)])))
        let quotedMarker = JSONValue.string(marker).jsonText()
        guard let range = full.range(of: quotedMarker) else {
            preconditionFailure("the document does not contain its array")   // document(_:) must place the array
        }
        head = String(full[..<range.lowerBound])
        tail = String(full[range.upperBound...])
        empty = render(document(.array([])))
        self.pretty = pretty
        let indent = head.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        lineBreak = Array(("\n" + indent).utf8)
        separator = pretty ? ",\n" + indent : ","
    }

    /// One element's text, indented to its place in the document, as UTF-8.
    func element(_ value: JSONValue) -> [UInt8] {
        guard pretty else { return Array(value.jsonText().utf8) }
        // Line breaks inside pretty text come only from the layout: strings escape theirs.
        let text = value.prettyText()
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 5 / 4)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") { out += lineBreak } else { out.append(byte) }
        }
        return out
    }
}
