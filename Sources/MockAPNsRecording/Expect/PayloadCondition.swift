import APNsModel

/// One `PATH=VALUE` condition (`mockapns expect --where`, `/api/v1/expect?where=`) on the payload, e.g. `aps.alert.title=Shipped` or `aps.badge=3`.
///
/// PATH is dot-separated object keys (array elements by index: `aps.alert.loc-args.0`). VALUE matches
/// a string exactly, a number numerically (`3` matches `3` and `3.0`), `true`/`false` a boolean and
/// `null` a null; otherwise it is compared with the value's compact JSON text (for objects and arrays).
public struct PayloadCondition: CustomStringConvertible, Sendable {
    /// The path as written.
    public let path: String
    /// The expected value as written.
    public let expected: String

    /// Parses `PATH=VALUE` (the first `=` splits).
    public init(parsing text: String) throws(ExpectationError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ExpectationError("a payload condition is PATH=VALUE, e.g. aps.alert.title=Shipped; got '\(text)'")
        }
        path = String(text[..<equals])
        expected = String(text[text.index(after: equals)...])
    }

    /// `aps.alert.title = "Shipped"`.
    public var description: String { "\(path)=\(expected)" }

    /// The value at ``path`` in `payload`, if any.
    public func actual(in payload: JSONValue?) -> JSONValue? {
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
    public func matches(_ payload: JSONValue?) -> Bool {
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
    public func found(in payload: JSONValue?) -> String? {
        actual(in: payload).map { $0.jsonText() }
    }
}

/// An expectation that cannot be checked as given (a condition not of the form PATH=VALUE, a bad quantity), in a
/// sentence.
public struct ExpectationError: Error, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
