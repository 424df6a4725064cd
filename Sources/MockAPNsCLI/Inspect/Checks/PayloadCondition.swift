import APNsModel

/// One `--where PATH=VALUE` condition on the payload, e.g. `aps.alert.title=Shipped` or `aps.badge=3`.
///
/// PATH is dot-separated object keys (array elements by index: `aps.alert.loc-args.0`). VALUE matches
/// a string exactly, a number numerically (`3` matches `3` and `3.0`), `true`/`false` a boolean and
/// `null` a null; otherwise it is compared with the value's compact JSON text (for objects and arrays).
struct PayloadCondition: CustomStringConvertible, Sendable {
    /// The path as written.
    let path: String
    /// The expected value as written.
    let expected: String

    /// Parses `PATH=VALUE` (the first `=` splits).
    init(parsing text: String) throws(InspectError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .usage("--where needs PATH=VALUE, e.g. --where aps.alert.title=Shipped; got '\(text)'.")
        }
        path = String(text[..<equals])
        expected = String(text[text.index(after: equals)...])
    }

    /// `aps.alert.title = "Shipped"`.
    var description: String { "\(path)=\(expected)" }

    /// The value at ``path`` in `payload`, if any.
    func actual(in payload: JSONValue?) -> JSONValue? {
        var current = payload
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object?: current = current?[String(key)]
            case .array(let items)?:
                guard let index = Int(key), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// Whether `payload` satisfies the condition.
    func matches(_ payload: JSONValue?) -> Bool {
        guard let value = actual(in: payload) else { return false }
        switch value {
        case .string(let text): return text == expected
        case .integer, .double:
            guard let number = Double(expected), let actual = value.numberValue else { return false }
            return number == actual
        case .bool(let flag): return expected == (flag ? "true" : "false")
        case .null: return expected == "null"
        case .array, .object: return value.jsonText() == expected
        }
    }

    /// What the payload has at ``path``, for reports: its JSON, or nil when the path is absent.
    func found(in payload: JSONValue?) -> String? {
        actual(in: payload).map { $0.jsonText() }
    }
}
