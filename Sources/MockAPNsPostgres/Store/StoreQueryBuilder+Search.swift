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
            case .token: add("token LIKE ", Self.likePattern(value, anywhere: false))   // stored lowercased
            case .type: add("lower(push_type) = ", value)
            case .reason: add("lower(reason) = ", value)
            case .status:
                if let exact = Int32(value) {
                    add("status = ", exact)
                } else if let hundreds = value.first?.wholeNumberValue {
                    add("status >= ", Int32(hundreds * 100))
                    add("status < ", Int32(hundreds * 100 + 100))
                }
            case .title, .body: add("search_text LIKE ", Self.likePattern(value, anywhere: true))
            case .text:
                // A bare word may also be part of the device token, which the search text leaves out; a word with a
                // character no token has (tokens are hex) cannot be, so only such words narrow.
                if value.contains(where: { !$0.isHexDigit }) { add("search_text LIKE ", Self.likePattern(value, anywhere: true)) }
            case .has: break
            }
        }
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

    /// `value` as a `LIKE` pattern: its `%`, `_` and `\` escaped, then `value%` or `%value%`.
    static func likePattern(_ value: String, anywhere: Bool) -> String {
        var escaped = ""
        for character in value {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return (anywhere ? "%" : "") + escaped + "%"
    }
}
