import APNsModel

/// The JSON parser: any bytes in; it must answer (value or error) without trapping, and agree with itself.
///
/// Checks beyond "does not crash": `parseOutline` fails exactly when `parse` throws (its documented contract),
/// and what `jsonText()` writes parses again and writes the same text (recordings are read back).
public enum JSONFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let outline = JSONValue.parseOutline(bytes)
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            precondition(outline == nil, "parseOutline accepted what parse refused: \(error)")
            return
        }
        precondition(outline != nil, "parseOutline refused what parse accepted")
        for text in [value.jsonText(), value.jsonText(sortedKeys: true), value.prettyText()] {
            guard let again = try? JSONValue.parse(text) else {
                preconditionFailure("written JSON does not parse again: \(text)")
            }
            precondition(again.jsonText() == value.jsonText() || text != value.jsonText(),
                         "JSON text is not stable through a round trip: \(text)")
        }
    }
}
