import MockAPNsRecording

/// Query strings and readable descriptions of a ``RecordFilter``.
extension RecordFilter {
    /// The control API's query parameters for this filter, in a fixed order.
    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let token { items.append(("token", token)) }
        if let topic { items.append(("topic", topic)) }
        if let pushType { items.append(("push_type", pushType)) }
        if let status { items.append(("status", String(status))) }
        if let reason { items.append(("reason", reason)) }
        if let since { items.append(("since", String(since))) }
        if let limit { items.append(("limit", String(limit))) }
        return items
    }

    /// `token=…, topic=…` for messages; `any record` when nothing is filtered.
    var readable: String {
        let parts = queryItems.filter { $0.0 != "limit" }.map { "\($0.0)=\($0.1)" }
        return parts.isEmpty ? "any record" : parts.joined(separator: ", ")
    }
}
