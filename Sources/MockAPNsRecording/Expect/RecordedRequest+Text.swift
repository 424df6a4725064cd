import APNsModel

/// Short texts about a record, for the lines of reports and tables (`mockapns list`, an expectation's message).
extension RecordedRequest {
    /// `200 OK`, `400 BadDeviceToken`, or `no response` (a stall, reset or dropped connection).
    public var verdictText: String {
        if response.status == 0 { return "no response" }
        if response.status == 200 { return "200 OK" }
        return [String(response.status), response.reason].compactMap { $0 }.joined(separator: " ")
    }

    /// The alert's title and body, or what kind of push it is when it has none, at most 48 characters.
    public var summaryText: String {
        guard let payload else { return body.isEmpty ? "(empty body)" : "(not JSON)" }
        let alert = payload.value(at: ["aps", "alert"])
        let title = alert?["title"]?.stringValue
        let body = alert?.stringValue ?? alert?["body"]?.stringValue
        let text = [title, body].compactMap { $0 }.joined(separator: " — ")
        if !text.isEmpty { return Self.clip(text, 48) }
        if payload.value(at: ["aps", "content-available"]) != nil { return "(content-available)" }
        if let event = payload.value(at: ["aps", "event"])?.stringValue { return "(live activity: \(event))" }
        return Self.clip(payload.jsonText(), 48)
    }

    /// `12:00:00.123`: the time of day (UTC) of `millis`, for table columns.
    public static func clockText(_ millis: Int64) -> String {
        let full = Timestamp.iso8601(millis: millis)
        guard let t = full.firstIndex(of: "T") else { return full }
        return String(full[full.index(after: t)...].dropLast())
    }

    /// The first 8 and last 4 characters of a long token; `-` for none.
    public static func shortToken(_ token: String?) -> String {
        guard let token else { return "-" }
        return token.count > 16 ? "\(token.prefix(8))…\(token.suffix(4))" : token
    }

    /// `text` cut to `limit` characters with an ellipsis.
    public static func clip(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
