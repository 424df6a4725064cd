/// What an Android app does with a message, as Firebase's "receive messages" pages for Android describe it
/// (fcm-rules §6.1). The mock records Android deliveries; this is the model a record or a test reads them with.
public enum FCMAndroidHandling: Sendable, Hashable {
    /// The system tray shows the notification; a tap opens the launcher activity (or `click_action`'s), with the
    /// data, if any, in the intent's extras. `onMessageReceived` is not called.
    case systemTray(dataInIntent: Bool)
    /// `FirebaseMessagingService.onMessageReceived` gets the whole message.
    case onMessageReceived

    /// How an app handles `message`: a message with notification text (`notification` or `android.notification`
    /// title or body) to an app in the background goes to the tray; everything else — any message to an app in the
    /// foreground, and a data message always — goes to `onMessageReceived`.
    public static func of(_ message: FCMMessage, appInForeground: Bool) -> FCMAndroidHandling {
        let androidText = !(message.android?.notification?.title ?? "").isEmpty || !(message.android?.notification?.body ?? "").isEmpty
        let hasNotification = message.notification?.hasText == true || androidText
        guard hasNotification, !appInForeground else { return .onMessageReceived }
        let data = message.android?.data ?? message.data
        return .systemTray(dataInIntent: !data.isEmpty)
    }

    /// The most collapse keys FCM keeps at once for one device.
    public static let maximumCollapseKeys = 4

    /// The most messages FCM stores for one offline app instance: past this, none is delivered when the device comes
    /// back and the app's `onDeletedMessages` is called instead (fcm-rules §6.3).
    public static let maximumPendingMessages = 100

    /// The messages an offline device gets when it comes back (fcm-rules §6.2), given what was sent while it was
    /// away, oldest first, each with the time it was sent and the time it comes back (seconds): a message whose
    /// `ttl` ran out is dropped (a `ttl` of 0 means now or never, so it is always dropped for an offline device); of
    /// messages with the same `collapse_key` only the latest is kept; and at most ``maximumCollapseKeys`` collapse
    /// keys are kept, the oldest keys' messages dropped first. Messages without a collapse key are all kept.
    public static func delivered(_ pending: [(message: FCMMessage, sentAt: Int64)], reconnectAt: Int64) -> [FCMMessage] {
        deliveredIndices(pending, reconnectAt: reconnectAt).map { pending[$0].message }
    }

    /// ``delivered(_:reconnectAt:)`` as positions in `pending`, in delivery order, so a caller keeps what it stored
    /// beside each message.
    public static func deliveredIndices(_ pending: [(message: FCMMessage, sentAt: Int64)], reconnectAt: Int64) -> [Int] {
        var kept: [Int] = []
        for (index, item) in pending.enumerated() {
            let ttl = item.message.android?.ttlSeconds ?? FCMAndroidConfig.maximumTTLSeconds
            let (expiry, overflow) = item.sentAt.addingReportingOverflow(ttl)
            guard ttl > 0, overflow || expiry >= reconnectAt else { continue }
            if let key = item.message.android?.collapseKey {
                kept.removeAll { pending[$0].message.android?.collapseKey == key }
            }
            kept.append(index)
        }
        var keys: [String] = []
        for index in kept.reversed() {
            if let key = pending[index].message.android?.collapseKey, !keys.contains(key) { keys.append(key) }
        }
        let allowed = Set(keys.prefix(maximumCollapseKeys))
        return kept.filter { index in pending[index].message.android?.collapseKey.map(allowed.contains) ?? true }
    }
}
