import APNsModel
import Foundation
import MockAPNsRecording

/// Short texts about a record for tables and reports.
enum RecordText {
    /// The value of header `name` (lowercase), as the recorder reads it.
    static func header(_ record: RecordedRequest, _ name: String) -> String? {
        record.header(name)
    }

    /// `2026-11-23T12:00:00.123Z`.
    static func timestamp(_ millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    /// The upstream's side of a relayed push (`serve --relay`): `410 Unregistered in 12.3 ms, apns-id …`, the error
    /// when it gave no answer, or why the push was not relayed.
    static func relayVerdict(_ relay: RelayVerdict, style: TerminalStyle) -> String {
        if let skipped = relay.skipped { return style.dim(skipped) }
        let status = [String(relay.status), relay.reason].compactMap { $0 }.joined(separator: " ")
        var text = style.status(relay.status, relay.status == 200 ? "200 OK" : status)
            + String(format: " in %.3f ms", Double(relay.durationMicros) / 1000)
        if let id = relay.apnsID { text += ", apns-id \(id)" }
        if let timestamp = relay.timestamp { text += ", timestamp \(timestamp)" }
        if let error = relay.error { text += " — " + style.yellow(error) }
        return text
    }

    /// The table row used by `list` and `tail`.
    static func row(_ record: RecordedRequest, style: TerminalStyle) -> [String] {
        var notes: [String] = []
        if !record.faults.isEmpty { notes.append("fault: " + record.faults.joined(separator: ",")) }
        if !record.lint.isEmpty { notes.append("lint: \(record.lint.count)") }
        if let relay = record.relay, relay.skipped == nil {
            notes.append("upstream: " + [String(relay.status), relay.reason].compactMap { $0 }.joined(separator: " "))
        }
        return [
            String(record.seq),
            RecordedRequest.clockText(record.receivedAtMillis),
            style.status(record.response.status, record.verdictText),
            header(record, "apns-push-type") ?? "-",
            header(record, "apns-topic") ?? "-",
            RecordedRequest.shortToken(record.deviceToken),
            record.summaryText,
            style.yellow(notes.joined(separator: "; ")),
        ]
    }

    /// Column titles matching ``row(_:style:)``.
    static let columns = ["SEQ", "TIME", "STATUS", "TYPE", "TOPIC", "TOKEN", "CONTENT", "NOTES"]
}
