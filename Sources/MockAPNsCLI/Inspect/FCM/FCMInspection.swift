import APNsModel
import MockAPNsFCM
import MockAPNsRecording

/// `list --fcm`, `show --fcm` and `expect --fcm`: the FCM front door's records (`serve --fcm`), each beside the APNs
/// pushes it became. A running mock serves them at `/api/v1/fcm/messages` (from memory, or from its `--store`); a
/// shared store holds every instance's, read here without a running mock. A recording holds only the pushes (with
/// their `fcm` field).
struct FCMInspection {
    /// Where the FCM records are read.
    enum Reader {
        /// A running mock's control plane.
        case live(ControlClient)
        /// A shared store (`--store`).
        case store(StoreSource)
    }

    let reader: Reader

    /// The running mock or store `source` names.
    init(_ source: InspectSource) throws(InspectError) {
        switch source {
        case .live(let client): reader = .live(client)
        case .store(let store): reader = .store(store)
        case .file:
            throw .usage("--fcm reads the FCM records of a running mock (--server URL or --ready-file PATH) or of a shared store (--store URL). A recording holds the APNs pushes the messages became (`list --file … ` shows them, each with its \"fcm\" field).")
        }
    }

    /// The filters that apply to FCM records and the limit; the APNs-only ones are refused.
    static func filter(_ filters: FilterOptions, project: String?, name: String?) throws(InspectError) -> (filter: FCMExpectation.Filter, limit: Int?) {
        if filters.pushType != nil || filters.reason != nil || filters.since != nil {
            throw .usage("With --fcm the filters are --project, --name, --token (the registration token), --topic (the FCM topic), --status and --limit; --push-type, --reason and --since are for APNs records.")
        }
        return (FCMExpectation.Filter(project: project, name: name, token: filters.token, topic: filters.topic, status: filters.status),
                filters.limit)
    }

    /// `filter` as the control API's query.
    static func query(_ filter: FCMExpectation.Filter) -> [(String, String)] {
        var query: [(String, String)] = []
        if let project = filter.project { query.append(("project", project)) }
        if let name = filter.name { query.append(("name", name)) }
        if let token = filter.token { query.append(("token", token)) }
        if let topic = filter.topic { query.append(("topic", topic)) }
        if let status = filter.status { query.append(("status", String(status))) }
        return query
    }

    /// Where the records are read, for messages.
    var label: String {
        switch reader {
        case .live(let client): return client.label
        case .store(let store): return store.label
        }
    }

    /// The newest `limit` records matching `filter`, oldest first.
    func messages(_ filter: FCMExpectation.Filter, limit: Int?) async throws(InspectError) -> [JSONValue] {
        switch reader {
        case .live(let client):
            var query = Self.query(filter)
            if let limit { query.append(("limit", String(limit))) }
            let body = try await client.get("api/v1/fcm/messages", query: query)
            guard case .array(let items)? = body["messages"] else {
                throw .server(url: client.label, status: 200, message: "the answer has no \"messages\" array.")
            }
            return items
        case .store(let store):
            return try await store.run { try await FCMStoredRecords(store.store).records(matching: filter, limit: limit) }
        }
    }

    /// The record with this name (or its last part) or `seq`.
    func message(_ id: String) async throws(InspectError) -> JSONValue {
        switch reader {
        case .live(let client):
            // The path is percent-encoded on the way (`address`): an FCM message id holds `%` and `:`.
            let last = id.split(separator: "/").last.map(String.init) ?? id
            return try await client.get("api/v1/fcm/messages/" + last, query: [])
        case .store(let store):
            let found = try await store.run { try await FCMStoredRecords(store.store).record([id]) }
            guard let found else { throw .notFound("no FCM record in \(store.label) has the name or seq \(id); `mockapns list --fcm --store URL` lists them") }
            return found
        }
    }

    /// Whether the records meet `expectation`: the report's JSON, as `GET /api/v1/fcm/expect` answers it.
    func expect(_ expectation: FCMExpectation) async throws(InspectError) -> JSONValue {
        switch reader {
        case .live(let client):
            var query = Self.query(expectation.filter)
            switch expectation.quantity {
            case .exactly(0): query.append(("none", "true"))
            case .exactly(let n): query.append(("count", String(n)))
            case .atLeast(let n): query.append(("at_least", String(n)))
            }
            return try await client.get("api/v1/fcm/expect", query: query)
        case .store(let store):
            let records = try await store.run { try await FCMStoredRecords(store.store).records(matching: FCMExpectation.Filter()) }
            return expectation.evaluate(records).json(source: "the FCM records of \(store.label)")
        }
    }

    /// The APNs records of the pushes `record` became, in delivery order (a push no longer held is left out).
    func pushes(of record: JSONValue) async throws(InspectError) -> [RecordedRequest] {
        guard case .array(let ids)? = record["apns_ids"] else { return [] }
        var found: [RecordedRequest] = []
        for id in ids.compactMap(\.stringValue) {
            let push: RecordedRequest?
            switch reader {
            case .live(let client): push = try await client.record(id)
            case .store(let store): push = try await store.record(id)
            }
            if let push { found.append(push) }
        }
        return found
    }

    // MARK: Texts

    /// The table's columns.
    static let columns = ["SEQ", "TIME", "STATUS", "PROJECT", "TARGET", "DELIVERIES", "MESSAGE"]

    /// One record's row.
    static func row(_ record: JSONValue, style: TerminalStyle) -> [String] {
        let status = Int(record["status"]?.integerValue ?? 0)
        return [
            String(record["seq"]?.integerValue ?? 0),
            RecordedRequest.clockText(record["received_at_ms"]?.integerValue ?? 0),
            style.status(status, FCMRecordText.verdict(record)),
            record["project"]?.stringValue ?? "-",
            FCMRecordText.target(record),
            deliveries(record),
            RecordedRequest.clip(summary(record), 40),
        ]
    }

    /// `2: ios 200, android` — each device reached, an iOS one with APNs's status.
    static func deliveries(_ record: JSONValue) -> String {
        guard case .array(let items)? = record["deliveries"], !items.isEmpty else { return "0" }
        let shown = items.prefix(3).map { item -> String in
            let platform = item["platform"]?.stringValue ?? "?"
            guard let status = item["apns_status"]?.integerValue else {
                return item["apns_id"] == nil ? platform : platform + " no answer"
            }
            return [platform, String(status), item["apns_reason"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        }
        return "\(items.count): " + shown.joined(separator: ", ") + (items.count > 3 ? ", …" : "")
    }

    /// The notification's title and body, or what the message is.
    static func summary(_ record: JSONValue) -> String {
        let message = record["message"]
        let notification = message?["notification"]
        let text = [notification?["title"]?.stringValue, notification?["body"]?.stringValue].compactMap { $0 }
            .joined(separator: " — ")
        if !text.isEmpty { return text }
        if message?["data"] != nil { return "(data)" }
        return message == nil || message == .null ? "(no message)" : RecordedRequest.clip(message!.jsonText(), 40)
    }

    /// `show --fcm`'s page: the record, then each APNs push it became, with what the phone does with it.
    static func render(_ record: JSONValue, pushes: [RecordedRequest], style: TerminalStyle) -> String {
        var out: [String] = []
        let seq = record["seq"]?.integerValue ?? 0
        out.append(style.bold("FCM message #\(seq)") + "  \(RecordText.timestamp(record["received_at_ms"]?.integerValue ?? 0))")
        out.append("  Verdict     " + style.status(Int(record["status"]?.integerValue ?? 0), FCMRecordText.verdict(record)))
        if let name = record["name"]?.stringValue { out.append("  Name        \(name)") }
        out.append("  Project     \(record["project"]?.stringValue ?? "-")")
        out.append("  Target      \(FCMRecordText.target(record))")
        out.append("  From        \(record["remote"]?.stringValue ?? "-") over \(record["transport"]?.stringValue ?? "-")")
        if record["validate_only"]?.boolValue == true { out.append("  Dry run     checked, nothing delivered") }
        if case .array(let faults)? = record["faults"], !faults.isEmpty {
            out.append("  Faults      " + faults.compactMap(\.stringValue).map(style.yellow).joined(separator: ", "))
        }
        out.append("")
        out.append(style.bold("Message"))
        let message = record["message"] ?? .null
        out.append(message.prettyText().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        if record["status"]?.integerValue != 200 {
            out.append("")
            out.append(style.bold("Answer"))
            out.append("  " + (record["answer"] ?? .null).jsonText())
        }
        out.append("")
        out.append(style.bold("Deliveries") + (deliveries(record) == "0" ? "  none" : ""))
        if case .array(let items)? = record["deliveries"] {
            for item in items {
                var line = "  \(item["platform"]?.stringValue ?? "?") \(RecordedRequest.shortToken(item["token"]?.stringValue))"
                if let apns = item["apns_token"]?.stringValue { line += " → APNs \(RecordedRequest.shortToken(apns))" }
                if let status = item["apns_status"]?.integerValue {
                    line += ": " + style.status(Int(status), [String(status), item["apns_reason"]?.stringValue].compactMap { $0 }.joined(separator: " "))
                } else if item["apns_id"] != nil {
                    line += ": no answer"
                }
                out.append(line)
            }
        }
        for push in pushes {
            out.append("")
            out.append(style.bold("APNs push #\(push.seq)") + "  \(push.verdictText)  apns-id \(push.response.apnsID ?? "-")")
            out.append("  " + push.summaryText)
            for result in ShowCommand.simulations(push) {
                out.append("  \(result.state.rawValue): " + SimulationReport.summary(result.simulation.presentation)
                           + " — " + SimulationReport.chain(result.simulation.events))
            }
        }
        return out.joined(separator: "\n") + "\n"
    }
}
