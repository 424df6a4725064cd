import MockAPNsRecording

/// Decides whether received notifications meet an expectation and, when not, writes the failure message in the words
/// `mockapns expect` and `GET /api/v1/expect` use (``ExpectationReport``): what was wanted and how many matched, then
/// the last matches and the closest misses (most expected properties first, ties newest first), each with what it
/// had instead. The XCTest and Swift Testing helpers only report what this returns.
public enum ExpectationEvaluator {
    /// What the Swift kit's records are called in its messages.
    static let noun = ExpectationReport.Noun("notification", "notifications")

    /// nil when `notifications` satisfy `expectation`; otherwise the failure message.
    public static func failureMessage(for expectation: NotificationExpectation,
                                      in notifications: [ReceivedNotification]) -> String? {
        let report = report(for: expectation, in: notifications)
        guard !report.met else { return nil }
        return String(report.message(source: "the mock").dropLast())   // its final newline
    }

    /// What `notifications` show for `expectation`.
    public static func report(for expectation: NotificationExpectation, in notifications: [ReceivedNotification]) -> ExpectationReport {
        let ranked = notifications.map { RankedNotification($0, expectation.properties) }
        let matching = ranked.filter(\.isMatch).map(\.notification)
        let closest = ExpectationReport.closest(ranked.filter { !$0.isMatch }.map { ($0, $0.checks.count - $0.matchedCount) })
            .map { ExpectationReport.Miss(seq: $0.notification.sequence, line: $0.notification.summary, met: $0.matchedCount, missed: $0.misses) }
        let properties = expectation.properties
        return ExpectationReport(
            quantity: expectation.count.quantity, noun: noun, criteria: properties.map(\.description),
            wanted: properties.isEmpty ? ExpectationReport.with([], noun: noun) : NotificationProperty.phrase(properties),
            considered: notifications.count, matchedCount: matching.count, matchedSeqs: matching.map(\.sequence),
            matching: matching.suffix(ExpectationTally.keptMatches).map(\.summary), closest: closest)
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
}
