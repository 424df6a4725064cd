import APNsModel

extension ReceivedNotification {
    /// One line a developer can read in a failure message, e.g.
    /// `#3 alert push to 00fc13ad…1de8f0, topic com.example.shop: accepted (200); title "Shipped", body "Order 42"`.
    public var summary: String {
        var text = "#\(sequence) " + (record.header("apns-push-type").map { "\($0) push" } ?? "push")
        text += " to \(Self.shortToken(deviceToken))"
        if let topic { text += ", topic \(topic)" }
        text += ": " + responseText
        var details: [String] = []
        if let alertTitle { details.append("title \(Self.quoted(alertTitle))") }
        if let alertBody { details.append("body \(Self.quoted(alertBody))") }
        if payload == nil { details.append("body is not JSON") }
        if !details.isEmpty { text += "; " + details.joined(separator: ", ") }
        return text
    }

    /// `accepted (200)`, `rejected 410 Unregistered`, or `not answered (stall)`.
    public var responseText: String {
        if status == 200 { return "accepted (200)" }
        if status == 0 { return "not answered (\(faults.joined(separator: ", ")))" }
        return "rejected \(status)" + (reasonText.map { " \($0)" } ?? "")
    }

    /// A long token shortened to its first 8 and last 6 characters.
    static func shortToken(_ token: String?) -> String {
        guard let token else { return "(no device token)" }
        guard token.count > 16 else { return token }
        return "\(token.prefix(8))…\(token.suffix(6))"
    }

    /// A string in double quotes, as failure messages show values.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText()
    }
}
