/// The words of a batch's search texts, once each: what a search block holds (`mockapns_search_blocks.words`).
///
/// A word is a run of bytes that are not ASCII punctuation, spaces or control characters (so letters and digits of
/// any script stay inside words). Any text found inside a record's search text splits, the same way, into pieces each
/// found inside one of that record's words: a block whose words hold every piece of a query term is the only kind
/// that can hold a match, which is why narrowing by blocks never drops one. Migration 6 splits existing rows with the
/// same rule in SQL.
struct SearchBlockWords {
    private var seen = Set<Substring>()
    /// The distinct words, one per line.
    private(set) var text = ""

    /// Adds the words of `searchText`.
    mutating func add(_ searchText: String) {
        for word in Self.pieces(of: searchText) where seen.insert(word).inserted {
            if !text.isEmpty { text.append("\n") }
            text.append(contentsOf: word)
        }
    }

    /// `text` split into words (empty runs dropped).
    static func pieces(of text: String) -> [Substring] {
        text.utf8.split(whereSeparator: isSeparator).map { Substring($0) }
    }

    /// ASCII bytes other than letters and digits separate words (the SQL rule: `[\x01-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]`);
    /// NUL never reaches the store.
    static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...: return false
        default: return true
        }
    }
}
