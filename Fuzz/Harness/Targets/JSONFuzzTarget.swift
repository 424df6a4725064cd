import APNsModel

/// The JSON parser: any bytes in; it must answer (value or error) without trapping, and agree with itself.
///
/// Checks beyond "does not crash": the validator the server checks bodies with (`JSONValue.isValid`/`isObject`)
/// gives exactly `parse`'s verdict — a differential oracle, since both read the same grammar by different code —
/// and what `jsonText()` writes parses again and writes the same text (recordings are read back).
public enum JSONFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let valid = JSONValue.isValid(bytes)
        let object = JSONValue.isObject(bytes)
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            precondition(!valid && !object, "the validator accepted what parse refused: \(error)")
            return
        }
        precondition(valid, "the validator refused what parse accepted")
        if case .object = value {
            precondition(object, "the validator did not see the object parse read")
        } else {
            precondition(!object, "the validator took a \(value.jsonText().prefix(20)) for an object")
        }
        for text in [value.jsonText(), value.jsonText(sortedKeys: true), value.prettyText()] {
            guard let again = try? JSONValue.parse(text) else {
                preconditionFailure("written JSON does not parse again: \(text)")
            }
            precondition(again.jsonText() == value.jsonText() || text != value.jsonText(),
                         "JSON text is not stable through a round trip: \(text)")
        }
    }
}
