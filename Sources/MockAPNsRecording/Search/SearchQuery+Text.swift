import APNsModel

extension SearchQuery {
    /// The text a search's words can be found in, lowercased: the record's topic, alert title and body, and reason,
    /// one per line. A shared store keeps it beside each record and indexes it, so a query's `title:`, `body:` and
    /// bare words can narrow the candidates (a word found here may still be in another field than the term names:
    /// ``matches(_:)`` decides). The device token is left out: 64 random hex digits per record tripled the database's
    /// cost of indexing the text, and a token is found by `token:` (a prefix, indexed on its own).
    public static func searchText(of record: RecordedRequest) -> String {
        // The fields `SearchableRecord` reads for these terms, without the rest of it (run once per ring record).
        let alert = record.payload?["aps"]?["alert"]
        var text = ""
        for part in [record.header("apns-topic"), alert?.stringValue ?? alert?["title"]?.stringValue, alert?["body"]?.stringValue,
                     record.response.reason] {
            guard let part else { continue }
            if !text.isEmpty { text.append("\n") }
            text.append(part)
        }
        // Plain ASCII (the usual case) is lowered byte by byte; other text as `lowercased()` does it, as the matcher does.
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
