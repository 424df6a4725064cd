/// The size limit (fcm-rules §3.7): FCM counts "the total size of the payload data … both the keys and the
/// values" against 4096 bytes, and its error-code page says 2048 for a topic message (``FCMLimits``).
///
/// What "payload" means is the mock's model, since Google does not spell it out: the UTF-8 bytes of every key and
/// value of the largest of the three `data` maps (`message.data`, `android.data`, `webpush.data`, since a platform's
/// map replaces the common one rather than adding to it), plus those of `notification.title` and `.body`. The
/// APNs payload the mock then builds is held to APNs's own limit by the APNs rules, and a refusal there comes back
/// as FCM's 400 (fcm-rules §4.5).
public enum MessageSize {
    /// The payload bytes of `message`.
    public static func payloadBytes(of message: FCMMessage) -> Int {
        func bytes(_ map: [FCMKeyValue]?) -> Int {
            (map ?? []).reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
        let data = max(bytes(message.data), bytes(message.android?.data), bytes(message.webpush?.data))
        let text = (message.notification?.title?.utf8.count ?? 0) + (message.notification?.body?.utf8.count ?? 0)
        return data + text
    }

    /// Throws 400 `INVALID_ARGUMENT` when `message` is over its limit: `topicMessageBytes` for a topic or condition,
    /// `messageBytes` otherwise.
    static func check(_ message: FCMMessage, limits: FCMLimits) throws(FCMError) {
        let limit = message.target.isFanOut ? limits.topicMessageBytes : limits.messageBytes
        let size = payloadBytes(of: message)
        guard size > limit else { return }
        let kind = message.target.isFanOut ? "a topic message" : "a message"
        throw FCMError.invalidArgument("Message is too big", field: "message",
                                       description: "The message's data and notification text take \(size) bytes; FCM allows \(limit) for \(kind).")
    }
}
