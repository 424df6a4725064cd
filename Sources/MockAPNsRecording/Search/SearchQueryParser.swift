/// Turns the text of a search box into ``SearchTerm``s (the grammar is on ``SearchQuery``).
enum SearchQueryParser {
    /// The fields a `field:value` term may name, for error messages.
    static let fieldNames = SearchTerm.Field.allCases.filter { $0 != .text }.map(\.rawValue)

    static func parse(_ text: String) throws(SearchQueryError) -> [SearchTerm] {
        try words(of: text).map { word throws(SearchQueryError) in try term(word) }
    }

    /// A word as typed: its text (quotes removed) and whether any part was quoted, so `"a:b"` stays free text.
    struct Word: Equatable {
        var text: String
        var quotedFrom: String.Index?
    }

    /// Splits on unquoted whitespace; a quote may start mid-word (`title:"a b"`).
    static func words(of text: String) throws(SearchQueryError) -> [Word] {
        var words: [Word] = []
        var current = ""
        var quotedFrom: String.Index?
        var inQuote = false
        var started = false
        for character in text {
            if character == "\"" {
                if !inQuote, quotedFrom == nil { quotedFrom = current.endIndex }
                inQuote.toggle()
                started = true
            } else if character.isWhitespace, !inQuote {
                if started { words.append(Word(text: current, quotedFrom: quotedFrom)) }
                current = ""
                quotedFrom = nil
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if inQuote { throw SearchQueryError("The search has an unterminated quote: close it with \".") }
        if started { words.append(Word(text: current, quotedFrom: quotedFrom)) }
        return words
    }

    static func term(_ word: Word) throws(SearchQueryError) -> SearchTerm {
        var text = Substring(word.text)
        var negated = false
        if text.hasPrefix("-"), text.count > 1, word.quotedFrom != text.startIndex {
            negated = true
            text = text.dropFirst()
        }
        // A colon inside quotes is part of the value, not a field separator.
        let colon = text.firstIndex(of: ":").flatMap { index in
            word.quotedFrom.map { index < $0 } ?? true ? index : nil
        }
        guard let colon else {
            guard !text.isEmpty else { throw SearchQueryError("The search has an empty quoted term.") }
            return SearchTerm(.text, String(text), negated: negated)
        }
        let name = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...])
        guard let field = SearchTerm.Field(rawValue: name), field != .text else {
            throw SearchQueryError(
                "Unknown search field '\(name):'. Use one of \(fieldNames.map { "\($0):" }.joined(separator: ", ")) or plain words.")
        }
        guard !value.isEmpty else {
            throw SearchQueryError("'\(name):' needs a value, for example \(example(field)).")
        }
        if field == .status, !isStatusPattern(value) {
            throw SearchQueryError("'status:\(value)' is not a status: use a code such as 200 or 410, or a class such as 4xx.")
        }
        return SearchTerm(field, value, negated: negated)
    }

    /// `200`…`599` as three digits, or a class: a digit then `xx`.
    static func isStatusPattern(_ value: String) -> Bool {
        let characters = Array(value.lowercased())
        guard characters.count == 3, let first = characters[0].wholeNumberValue, (1...5).contains(first) else { return false }
        if characters[1] == "x", characters[2] == "x" { return true }
        return characters[1].isASCII && characters[1].isNumber && characters[2].isASCII && characters[2].isNumber
    }

    private static func example(_ field: SearchTerm.Field) -> String {
        switch field {
        case .topic: return "topic:com.example.app"
        case .token: return "token:ab12"
        case .type: return "type:alert"
        case .status: return "status:410"
        case .reason: return "reason:BadDeviceToken"
        case .title: return "title:\"Order shipped\""
        case .body: return "body:shipped"
        case .has: return "has:inAppSymbol"
        case .text: return "shipped"
        }
    }
}
