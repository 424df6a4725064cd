/// Decides whether received notifications meet an expectation and, when not, writes the failure message:
/// what was expected, then what was received, closest match first (ranked by how many expected properties
/// each notification has), with each mismatch spelled out. The XCTest and Swift Testing helpers only
/// report what this returns.
public enum ExpectationEvaluator {
    /// How many non-matching notifications a message lists before summing up the rest.
    public static let listLimit = 5

    /// nil when `notifications` satisfy `expectation`; otherwise the failure message.
    public static func failureMessage(for expectation: NotificationExpectation,
                                      in notifications: [ReceivedNotification]) -> String? {
        let ranked = notifications.map { RankedNotification($0, expectation.properties) }
        let matching = ranked.filter(\.isMatch)
        guard !expectation.count.isSatisfied(by: matching.count) else { return nil }

        let header = "Expected \(expectation)"
        guard !notifications.isEmpty else { return header + ", but the mock received no notifications." }

        var lines: [String] = []
        if case .exactly(let n) = expectation.count, matching.count > n {
            lines.append(header + ", but \(matching.count) matched:")
            lines += matching.prefix(listLimit).map { "  " + $0.notification.summary }
            if matching.count > listLimit { lines.append("  … and \(matching.count - listLimit) more") }
            return lines.joined(separator: "\n")
        }
        if matching.isEmpty {
            let verdict = expectation.properties.isEmpty ? "the mock received only \(notifications.count)"
                : notifications.count == 1 ? "the only notification received did not match"
                : "none of the \(notifications.count) received matched"
            lines.append(header + ", but \(verdict).")
        } else {
            lines.append(header + ", but only \(matching.count) matched (\(numbers(matching))).")
        }
        let others = closestFirst(ranked.filter { !$0.isMatch })
        if !others.isEmpty {
            lines.append(matching.isEmpty ? "Received, closest match first:" : "Other notifications, closest match first:")
            for candidate in others.prefix(listLimit) { lines += candidate.lines(of: expectation.properties.count) }
            if others.count > listLimit { lines.append("  … and \(others.count - listLimit) more") }
        }
        return lines.joined(separator: "\n")
    }

    /// nil when `notification` has every one of `properties`; otherwise which ones it lacks and what it had.
    public static func failureMessage(for properties: [NotificationProperty],
                                      in notification: ReceivedNotification) -> String? {
        let ranked = RankedNotification(notification, properties)
        guard !ranked.isMatch else { return nil }
        let expected = properties.contains(where: \.isClause)
            ? "to be one " + NotificationProperty.phrase(properties) + ", but it was not:"
            : "to have " + properties.map(\.description).joined(separator: ", ") + ", but it did not:"
        return (["Expected notification #\(notification.sequence) \(expected)"]
            + ranked.lines(of: properties.count)).joined(separator: "\n")
    }

    /// Most matched properties first; ties in the order received.
    static func closestFirst(_ candidates: [RankedNotification]) -> [RankedNotification] {
        candidates.enumerated().sorted { a, b in
            a.element.matchedCount != b.element.matchedCount ? a.element.matchedCount > b.element.matchedCount
                : a.offset < b.offset
        }.map(\.element)
    }

    static func numbers(_ candidates: [RankedNotification]) -> String {
        candidates.map { "#\($0.notification.sequence)" }.joined(separator: ", ")
    }
}
