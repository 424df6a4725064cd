import APNsModel

/// The end-of-run report of `mockapns send`, as text or JSON.
struct SendSummary {
    var sent: Int
    var counts: SendTally.Counts
    var seconds: Double

    /// Pushes per second over the whole run.
    var rate: Double { seconds > 0 ? Double(sent) / seconds : 0 }
    /// Whether every push was accepted.
    var allAccepted: Bool { counts.accepted == sent }

    /// Human-readable lines.
    var text: String {
        var lines = ["sent \(sent), accepted \(counts.accepted), rejected \(counts.rejected.values.reduce(0, +)), "
            + "failed \(counts.failed.values.reduce(0, +)) in \(String(format: "%.3f", seconds)) s "
            + "(\(String(format: "%.0f", rate)) pushes/s)"]
        if sent == 1, let id = counts.firstAPNsID { lines.append("apns-id \(id)") }
        for (reason, count) in counts.rejected.sorted(by: { $0.key < $1.key }) { lines.append("  rejected \(reason): \(count)") }
        for (error, count) in counts.failed.sorted(by: { $0.key < $1.key }) { lines.append("  failed: \(error) (\(count))") }
        return lines.joined(separator: "\n")
    }

    /// `{"sent", "accepted", "rejected": {"410 Unregistered": n}, "failed": {…}, "seconds", "rate", "apns_id"}`.
    var json: JSONValue {
        func object(_ counts: [String: Int]) -> JSONValue {
            .object(counts.sorted { $0.key < $1.key }.map { .init($0.key, .integer(Int64($0.value))) })
        }
        var members: [JSONValue.JSONMember] = [
            .init("sent", .integer(Int64(sent))),
            .init("accepted", .integer(Int64(counts.accepted))),
            .init("rejected", object(counts.rejected)),
            .init("failed", object(counts.failed)),
            .init("seconds", .double(seconds)),
            .init("rate", .double(rate.rounded())),
        ]
        if let id = counts.firstAPNsID { members.append(.init("apns_id", .string(id))) }
        return .object(members)
    }
}
