/// Analytics labels (fcm-rules §3.11): `fcm_options.analytics_label` of the message, and of its `android`, `apns`
/// and `webpush` parts, must match `^[a-zA-Z0-9-_.~%]{1,50}$`, the pattern every Admin SDK checks.
enum AnalyticsLabel {
    /// The longest label.
    static let maximumLength = 50

    /// Whether `label` matches the pattern.
    static func isValid(_ label: String) -> Bool {
        (1...maximumLength).contains(label.utf8.count) && label.utf8.allSatisfy(FCMTopic.isNameByte)
    }

    /// Throws 400 `INVALID_ARGUMENT` naming `field` when `label` is present and does not match.
    static func check(_ label: String?, field: String) throws(FCMError) {
        guard let label, !isValid(label) else { return }
        throw FCMError.invalidArgument("Invalid analytics label \(FCMTopic.quoted(label)): a label is 1 to 50 of a-z A-Z 0-9 - _ . ~ %.",
                                       field: field)
    }
}
