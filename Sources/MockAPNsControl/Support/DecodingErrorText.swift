/// Turns a `DecodingError` into a short phrase that names the offending field.
enum DecodingErrorText {
    /// E.g. `missing field "state"` or `field "max": expected Int`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : "\"" + keys.map(\.stringValue).joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)) expected \(type)"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)) expected \(type), found null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not JSON (\(context.debugDescription))" : "at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
