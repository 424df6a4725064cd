import APNsModel
/// The rule that decided a timeline entry: a stable identifier, numbered as the section that states the rule
/// (device-rules §11–§15 over time; §5 for taps), that the control API, dashboard and tests can match on. The entry
/// carries the sentence for people (``DeviceTimelineEntry/explanation``).
public enum DeviceRule: String, CaseIterable, Sendable, Hashable {
    /// The device was online: the push was delivered at once (priority 10).
    case deliveredOnline = "11-delivered-online"
    /// The device was offline: APNs stored the push.
    case storeAndForward = "11-store-and-forward"
    /// The device was offline and `apns-expiration` was 0: one attempt, no storage, dropped.
    case expirationZero = "11-expiration-zero"
    /// The device was offline and `apns-expiration` was already past: nothing to store, dropped.
    case alreadyExpired = "11-already-expired"
    /// A newer push for the same app while the device was offline discarded this stored one (APNs stores one per app).
    case oneStoredPerApp = "11-one-stored-per-app"
    /// The stored push reached its `apns-expiration` before the device came back online: dropped.
    case expiredWhileStored = "11-expired-while-stored"
    /// The stored push reached the model's storage limit before the device came back online: dropped.
    case storageLimit = "11-storage-limit"
    /// The device came back online: APNs forwarded the stored push.
    case deliveredOnReconnect = "11-delivered-on-reconnect"
    /// Priority 5 or 1: APNs may group such pushes and deliver them in bursts; the model delivers in order, at once.
    case lowPriorityInOrder = "12-low-priority-in-order"
    /// A silent push within the background budget woke the app, or one over it was throttled.
    case backgroundBudget = "13-background-budget"
    /// A later push with the same `apns-collapse-id` replaced this one in Notification Center.
    case collapseIDReplacement = "14-collapse-id-replacement"
    /// A push-to-start push started a Live Activity.
    case liveActivityStart = "15-live-activity-start"
    /// An `update` push set a Live Activity's content state.
    case liveActivityUpdate = "15-live-activity-update"
    /// An `end` push ended a Live Activity.
    case liveActivityEnd = "15-live-activity-end"
    /// An `update` or `end` push went to a token no Live Activity on the device has: ActivityKit ignores it.
    case liveActivityUnknownToken = "15-live-activity-unknown-token"
    /// An `update` or `end` push reached a Live Activity that had already ended: ActivityKit ignores it.
    case liveActivityEnded = "15-live-activity-ended"
    /// An `update` or `end` push whose `timestamp` is older than the one last applied: ActivityKit ignores it.
    case liveActivityOutOfDate = "15-live-activity-out-of-date"
    /// The user tapped a notification, or tried to tap one that is not in Notification Center.
    case tap = "5-tap"
}
