import APNsModel

extension SearchQuery {
    /// The text a search's words can be found in, lowercased: the record's topic, token, alert title and body, and
    /// reason, one per line. A shared store keeps it beside each record and indexes it, so a query's `title:`,
    /// `body:` and bare words can narrow the candidates (a word found here may still be in another field than the
    /// term names: ``matches(_:)`` decides).
    public static func searchText(of record: RecordedRequest) -> String {
        let view = SearchableRecord(record)
        return [view.topic, view.token, view.title, view.body, view.reason]
            .compactMap { $0 }.joined(separator: "\n").lowercased()
    }
}
