import APNsModel

/// A search typed in one box — `topic:com.example.app type:alert -status:200 has:inAppSymbol "order 42"` — parsed
/// once and matched against records: the dashboard's search, applied on the server so it covers large recordings.
///
/// Terms are separated by spaces and all must match; a leading `-` negates one; values with spaces go in double
/// quotes (`title:"Order shipped"`). ``SearchTerm`` lists the fields. An empty query matches everything.
public struct SearchQuery: Sendable, Equatable {
    /// The terms, in the order typed.
    public var terms: [SearchTerm]

    /// A query of these terms (none: everything matches).
    public init(terms: [SearchTerm] = []) {
        self.terms = terms
    }

    /// Parses `text`; throws ``SearchQueryError`` naming the bad term (unknown field, empty value, bad status,
    /// unterminated quote).
    public init(parsing text: String) throws(SearchQueryError) {
        self.init(terms: try SearchQueryParser.parse(text))
    }

    /// Whether every term matches `record`.
    public func matches(_ record: RecordedRequest) -> Bool {
        guard !terms.isEmpty else { return true }
        let view = SearchableRecord(record)
        return terms.allSatisfy { $0.matches(view) }
    }
}
