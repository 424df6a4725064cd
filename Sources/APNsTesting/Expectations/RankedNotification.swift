import MockAPNsRecording

/// A notification with the result of every expected property, for ranking and for the message.
struct RankedNotification {
    let notification: ReceivedNotification
    let checks: [(property: NotificationProperty, result: PropertyCheck)]

    init(_ notification: ReceivedNotification, _ properties: [NotificationProperty]) {
        self.notification = notification
        self.checks = properties.map { ($0, $0.check(notification)) }
    }

    var matchedCount: Int { checks.filter(\.result.matched).count }
    var isMatch: Bool { matchedCount == checks.count }

    /// Each expected property it lacks, with what it had: `alert title "Shipped" (found "Delayed")`.
    var misses: [String] {
        checks.filter { !$0.result.matched }.map { check in
            let property = check.property
            let label = property.isClause ? "\(property.name): \(property.expected)" : property.description
            return ExpectationReport.Miss.missed(label, found: check.result.actual == "absent" ? nil : check.result.actual)
        }
    }

    /// The summary line, then one indented line per mismatch.
    func lines(of total: Int) -> [String] {
        var lines = ["  " + notification.summary + (total > 1 ? " — has \(matchedCount) of \(total)" : "")]
        for (property, result) in checks where !result.matched {
            let expected = property.expected.isEmpty ? "" : " expected \(property.expected),"
            lines.append("      \(property.name):\(expected) got \(result.actual)")
        }
        return lines
    }
}
