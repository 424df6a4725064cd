import Foundation

/// Canonical text for golden comparisons, and a line diff for failure messages.
enum GoldenText {
    /// Pretty, key-sorted JSON text of any JSON-compatible object (so both sides of a comparison print alike).
    static func canonical(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// Canonical text of an `Encodable` value.
    static func canonical<T: Encodable>(encoding value: T) throws -> String {
        try canonical(JSONSerialization.jsonObject(with: JSONEncoder().encode(value), options: [.fragmentsAllowed]))
    }

    /// A unified-style diff: lines only in `expected` start with `-`, only in `actual` with `+`.
    static func diff(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table.
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                lines.append("  " + old[i])
                i += 1
                j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                lines.append("- " + old[i])
                i += 1
            } else {
                lines.append("+ " + new[j])
                j += 1
            }
        }
        return lines.joined(separator: "\n")
    }
}
