/// "Did you mean": for a first argument that names no subcommand, the closest names (argument-parser only says
/// "Unexpected argument"), so `mockapns serv` points at `serve` and `mockapns lsit` at `list`.
enum SubcommandSuggestion {
    /// The message for `word` when it is not one of `names` and looks like a command (not an option), else nil.
    static func message(for word: String, names: [String]) -> String? {
        guard !word.hasPrefix("-"), !names.contains(word), !word.contains("/"), !word.contains(".") else { return nil }
        let ranked = names.map { ($0, distance(word.lowercased(), $0)) }.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        let close = ranked.filter { $0.1 <= max(2, word.count / 3) || $0.0.hasPrefix(word.lowercased()) }.map(\.0)
        var text = "unknown command '\(word)'."
        if !close.isEmpty { text += " Did you mean " + close.prefix(3).map { "'\($0)'" }.joined(separator: " or ") + "?" }
        return text + "\nCommands: " + names.joined(separator: ", ") + ". See 'mockapns --help'."
    }

    /// Levenshtein distance, counting an adjacent swap as one edit ("lsit" → "list").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
