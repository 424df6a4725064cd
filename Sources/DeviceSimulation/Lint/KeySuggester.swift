import APNsModel
/// Finds the known key a misspelt one was probably meant to be.
enum KeySuggester {
    /// The closest of `known` to `key`: same letters ignoring case, `-` and `_`, else within edit distance 2.
    static func suggestion(for key: String, among known: [String]) -> String? {
        let folded = fold(key)
        if let same = known.first(where: { fold($0) == folded }) { return same }
        let scored = known.map { ($0, distance(Array(key.lowercased()), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < key.count else { return nil }
        return best.0
    }

    private static func fold(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    /// Levenshtein distance.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
