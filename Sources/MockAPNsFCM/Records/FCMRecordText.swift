import JSON
import MockAPNsRecording

/// Short texts about an FCM record as the control API serves it (``FCMRecord/json``), for `list --fcm`, `show --fcm`
/// and an FCM expectation's report.
public enum FCMRecordText {
    /// `200 projects/P/messages/ID`, `200 dry run`, or `404 UNREGISTERED`.
    public static func verdict(_ record: JSONValue) -> String {
        let status = record["status"]?.integerValue ?? 0
        if status == 200 {
            if record["validate_only"]?.boolValue == true { return "200 dry run" }
            return "200 " + (record["name"]?.stringValue.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "")
        }
        guard let code = errorCode(record) ?? record["answer"]?["error"]?["status"]?.stringValue else { return String(status) }
        return "\(status) \(code)"
    }

    /// The `FcmError` detail's `errorCode`, when the answer has one.
    public static func errorCode(_ record: JSONValue) -> String? {
        guard case .array(let details)? = record["answer"]?["error"]?["details"] else { return nil }
        return details.lazy.compactMap { $0["errorCode"]?.stringValue }.first
    }

    /// `token …`, `topic news`, `condition '…'` or `-`.
    public static func target(_ record: JSONValue) -> String {
        targetIfAny(record) ?? "-"
    }

    /// `token …`, `topic news` or `condition '…'`; nil for a record that names no target (a message refused before
    /// its target was read).
    public static func targetIfAny(_ record: JSONValue) -> String? {
        for kind in ["token", "fid", "topic", "condition"] {
            if let value = record[kind]?.stringValue {
                return kind + " " + (kind == "token" ? RecordedRequest.shortToken(value) : RecordedRequest.clip(value, 32))
            }
        }
        return nil
    }

    /// `#seq  clock  verdict  target`.
    public static func line(_ record: JSONValue) -> String {
        "#\(record["seq"]?.integerValue ?? 0)  \(RecordedRequest.clockText(record["received_at_ms"]?.integerValue ?? 0))  \(verdict(record))  \(target(record))"
    }
}
