import APNsModel

extension SearchQuery {
    /// The text a search's words can be found in, lowercased: the record's topic, alert title and body, and reason,
    /// one per line. A shared store keeps it beside each record and indexes it, so a query's `title:`, `body:` and
    /// bare words can narrow the candidates (a word found here may still be in another field than the term names:
    /// ``matches(_:)`` decides). The device token is left out: 64 random hex digits per record tripled the database's
    /// cost of indexing the text, and a token is found by `token:` (a prefix, indexed on its own).
    public static func searchText(of record: RecordedRequest) -> String {
        let view = SearchableRecord(record)
        return [view.topic, view.title, view.body, view.reason]
            .compactMap { $0 }.joined(separator: "\n").lowercased()
    }
}
