import APNsClient
import APNsModel
import Foundation

/// The end-of-run report of `mockapns send`, as text or JSON: how many pushes were sent (accepted, rejected,
/// failed) and how many were not attempted because the run gave up on an unreachable endpoint.
struct SendSummary {
    /// Pushes the run was asked to send (`--count`).
    var count: Int
    var counts: SendTally.Counts
    var seconds: Double
    /// The outage the run gave up on (`--give-up-after`), if it did.
    var gaveUp: APNsConnectFailure?
    /// The `--give-up-after` value, to name it when the run gave up.
    var giveUpAfter: Double

    /// Pushes taken and finished: accepted, rejected or failed.
    var sent: Int { counts.done }
    /// Pushes never taken because the run gave up.
    var notAttempted: Int { count - sent }
    var rejected: Int { counts.rejected.values.reduce(0, +) }
    var failed: Int { counts.failed.values.reduce(0, +) }
    /// Pushes per second over the whole run.
    var rate: Double { seconds > 0 ? Double(sent) / seconds : 0 }
    /// Whether every push was accepted.
    var allAccepted: Bool { counts.accepted == count }

    /// Human-readable lines.
    var text: String {
        var first = "sent \(sent)"
        if sent != count { first += " of \(count)" }
        first += ", accepted \(counts.accepted), rejected \(rejected), failed \(failed)"
        if notAttempted > 0 { first += ", not attempted \(notAttempted)" }
        first += " in \(String(format: "%.3f", seconds)) s (\(String(format: "%.0f", rate)) pushes/s)"
        var lines = [first]
        if let gaveUp {
            lines.append("gave up: \(gaveUp) (--give-up-after \(Self.number(giveUpAfter)))")
        }
        if sent == 1, let id = counts.firstAPNsID { lines.append("apns-id \(id)") }
        for (reason, count) in counts.rejected.sorted(by: { $0.key < $1.key }) { lines.append("  rejected \(reason): \(count)") }
        for (error, count) in counts.failed.sorted(by: { $0.key < $1.key }) { lines.append("  failed: \(error) (\(count))") }
        return lines.joined(separator: "\n")
    }

    /// `{"sent", "accepted", "rejected": {"410 Unregistered": n}, "failed": {…}, "rejected_total", "failed_total",
    /// "not_attempted", "seconds", "rate", "apns_id", "gave_up"}`; `gave_up` (the outage, as a sentence) only when
    /// the run gave up.
    var json: JSONValue {
        func object(_ counts: [String: Int]) -> JSONValue {
            .object(counts.sorted { $0.key < $1.key }.map { .init($0.key, .integer(Int64($0.value))) })
        }
        var members: [JSONValue.JSONMember] = [
            .init("sent", .integer(Int64(sent))),
            .init("accepted", .integer(Int64(counts.accepted))),
            .init("rejected", object(counts.rejected)),
            .init("failed", object(counts.failed)),
            .init("rejected_total", .integer(Int64(rejected))),
            .init("failed_total", .integer(Int64(failed))),
            .init("not_attempted", .integer(Int64(notAttempted))),
            .init("seconds", .double(seconds)),
            .init("rate", .double(rate.rounded())),
        ]
        if let id = counts.firstAPNsID { members.append(.init("apns_id", .string(id))) }
        if let gaveUp { members.append(.init("gave_up", .string(gaveUp.description))) }
        return .object(members)
    }

    /// `10` for 10.0, `2.5` for 2.5.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
