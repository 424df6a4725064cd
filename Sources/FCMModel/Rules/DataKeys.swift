/// The keys a `data` map may not use (fcm-rules §3.6): `from` and `message_type`, and any key starting with
/// `google.` or `gcm.`.
///
/// Google's pages disagree. The REST reference (`Message.data`) reserves `from`, `message_type` and the prefixes
/// `google.` and `gcm.notification.`; its older text and the error-code page reserve any `google` or `gcm` prefix.
/// The mock's model reserves all of `gcm.`, because the keys FCM itself puts into an iPhone's payload
/// (`gcm.message_id`, `gcm.n.e`) start with it and a sender's own would collide with them, and keeps the dot after
/// `google`, as the current reference does (`googleplay` is a key like any other). Keys are compared as sent.
enum DataKeys {
    /// Keys reserved whole.
    static let reservedKeys: Set<String> = ["from", "message_type"]
    /// Prefixes reserved.
    static let reservedPrefixes = ["google.", "gcm."]

    /// Whether `key` is FCM's own.
    static func isReserved(_ key: String) -> Bool {
        reservedKeys.contains(key) || reservedPrefixes.contains { key.hasPrefix($0) }
    }

    /// Throws 400 `INVALID_ARGUMENT` for the first reserved key of `data`, naming `field`.
    static func check(_ data: [FCMKeyValue], field: String) throws(FCMError) {
        guard let bad = data.first(where: { isReserved($0.key) }) else { return }
        throw FCMError.invalidArgument("Invalid data payload key: \(bad.key)", field: field,
                                       description: "\(FCMTopic.quoted(bad.key)) is reserved by FCM: data keys may not be from or message_type, nor start with google. or gcm.")
    }
}
