import MockAPNs

extension StoreQueryBuilder {
    /// Adds a condition for each term of `query` the indexes can answer. Each is implied by the term, so the rows
    /// it leaves hold every match (and maybe more: `title:ship` also passes a record whose body says "ship");
    /// ``SearchQuery/matches(_:)`` decides on the rows read. Negated terms, `has:` and bare words of hex digits only
    /// add nothing: a negated superset would drop matches, `has:` looks inside the payload, and a hex word may be
    /// part of a token.
    mutating func narrow(by query: SearchQuery) {
        for term in query.terms where !term.negated {
            let value = term.value.lowercased()
            switch term.field {
            case .topic: add("lower(topic) = ", value)
            case .token:
                // Tokens are stored lowercased; a hex prefix is a range of the token index (digits sort before letters
                // in every collation PostgreSQL offers, as in byte order). Any other prefix is left to the matcher.
                if let range = Self.hexPrefixRange(value) {
                    add("token >= ", range.lower)
                    if let upper = range.upper { add("token < ", upper) }
                }
            case .type: add("lower(push_type) = ", value)
            case .reason: add("lower(reason) = ", value)
            case .status:
                if let exact = Int32(value) {
                    add("status = ", exact)
                } else if let hundreds = value.first?.wholeNumberValue {
                    add("status >= ", Int32(hundreds * 100))
                    add("status < ", Int32(hundreds * 100 + 100))
                }
            case .title, .body: add("search_text LIKE ", Self.likePattern(value))
            case .text:
                // A bare word may also be part of the device token, which the search text leaves out; a word with a
                // character no token has (tokens are hex) cannot be, so only such words narrow.
                if value.contains(where: { !$0.isHexDigit }) { add("search_text LIKE ", Self.likePattern(value)) }
            case .has: break
            }
        }
    }

    /// The pieces (``SearchBlockWords/pieces(of:)``) of the terms ``narrow(by:)`` narrows through the search text:
    /// a record matching the query has every one of them inside one of its words, so its batch's block holds them all.
    static func blockPieces(of query: SearchQuery) -> [String] {
        var pieces: [String] = []
        for term in query.terms where !term.negated {
            let value = term.value.lowercased()
            switch term.field {
            case .title, .body: break
            case .text where value.contains(where: { !$0.isHexDigit }): break
            default: continue
            }
            for piece in SearchBlockWords.pieces(of: value) where !pieces.contains(String(piece)) { pieces.append(String(piece)) }
        }
        return pieces
    }

    /// Adds `id` within any of `ranges` (at least one).
    mutating func add(ranges: [ClosedRange<Int64>]) {
        let alternatives = ranges.map { range in "id BETWEEN \(bind(range.lowerBound)) AND \(bind(range.upperBound))" }
        parts.append("(" + alternatives.joined(separator: " OR ") + ")")
    }

    /// Whether the conditions of ``narrow(by:)`` select exactly the matches of `query` (every term positive and
    /// answered by a column, not by the shared search text), so a page needs no rows beyond its own.
    static func isExact(_ query: SearchQuery) -> Bool {
        query.terms.allSatisfy { term in
            guard !term.negated else { return false }
            switch term.field {
            case .topic, .token, .type, .reason, .status: return true
            case .title, .body, .text, .has: return false
            }
        }
    }

    /// The tokens starting with `prefix` (hex digits, lowercase) as a range: from `prefix` to the next prefix of the
    /// same length or shorter (`ab9` → `aba`, `abf` → `ac`); no upper bound for all `f`s. Nil for any other text.
    static func hexPrefixRange(_ prefix: String) -> (lower: String, upper: String?)? {
        let hex = Array("0123456789abcdef")
        var digits = Array(prefix)
        guard !digits.isEmpty, digits.allSatisfy({ hex.contains($0) }) else { return nil }
        while let last = digits.last {
            if last == "f" {
                digits.removeLast()
                continue
            }
            guard let index = hex.firstIndex(of: last) else { return nil }
            digits[digits.count - 1] = hex[index + 1]
            return (prefix, String(digits))
        }
        return (prefix, nil)
    }

    /// `value` as a `LIKE` pattern: its `%`, `_` and `\` escaped, then `%value%`.
    static func likePattern(_ value: String) -> String {
        var escaped = ""
        for character in value {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "%" + escaped + "%"
    }
}
