/// A push's state in the words of Apple's Push Notifications Console: the names its delivery log (keyed by
/// `apns-unique-id`) and its Metrics tab give what APNs did with a push after accepting it
/// (device-rules §16). `rawValue` is the Console's wording, exactly.
///
/// The timeline is the device's view and these are APNs's, so which entry is which state is the mock's model, stated
/// in §16 and applied by ``of(rule:outcome:fromStorage:notificationsDenied:)`` alone: one pure mapping that the
/// timeline's JSON, the control API's delivery log, the CLI and the dashboard all show.
public enum ConsoleState: String, CaseIterable, Sendable, Hashable {
    /// APNs accepted the push (answered 200). Not a timeline entry: the delivery log starts with it, at the instant
    /// the push was received.
    case receivedByAPNs = "Received by APNs"
    /// The device got the push while connected.
    case deliveredToDevice = "Delivered to Device"
    /// The device got the push when APNs forwarded it from storage (the device came back online).
    case deliveredToDeviceFromStorage = "Delivered to Device (From Storage)"
    /// APNs stores the push while the device is offline.
    case storedDeviceOffline = "Stored - Device Offline"
    /// APNs holds the push for the device's power state: in the model, a silent push over the background budget.
    case storedPowerConsiderations = "Stored - Power Considerations"
    /// The token no longer names a recipient: in the model, a Live Activity token no activity on the device has.
    case discardedTokenUnregistered = "Discarded - Token Unregistered"
    /// The same, decided when APNs forwarded the push from storage.
    case discardedTokenUnregisteredFromStorage = "Discarded - Token Unregistered (From Storage)"
    /// The push could not be delivered before its `apns-expiration` (or the storage limit, in the model).
    case discardedExpired = "Discarded - Expired"
    /// The user turned the app's notifications off: a push that would show something while `authorization` is
    /// `denied`.
    case discardedDisabled = "Discarded - Disabled"
    /// The same, decided when APNs forwarded the push from storage.
    case discardedDisabledFromStorage = "Discarded - Disabled (From Storage)"

    /// The Console state of a timeline entry, per device-rules §16; nil where §16 gives none (a push replaced while
    /// stored or in Notification Center, and a tap: what the device or the user did, which APNs does not see).
    ///
    /// - `fromStorage`: the entry was decided when APNs forwarded a stored push (the device came back online); a
    ///   delivery or a discard then takes the "(From Storage)" form.
    /// - `notificationsDenied`: for a delivery, the push would show something (an alert, a sound or a badge) and the
    ///   app's `authorization` was `denied` at that instant.
    ///
    /// Pure: the same arguments always give the same state.
    public static func of(
        rule: DeviceRule, outcome: DeviceTimelineEntry.Outcome, fromStorage: Bool, notificationsDenied: Bool
    ) -> ConsoleState? {
        /// A push the device got: delivered, or discarded when the user turned the app's notifications off.
        func delivered(fromStorage: Bool) -> ConsoleState {
            switch (notificationsDenied && outcome == .delivered, fromStorage) {
            case (true, true): return .discardedDisabledFromStorage
            case (true, false): return .discardedDisabled
            case (false, true): return .deliveredToDeviceFromStorage
            case (false, false): return .deliveredToDevice
            }
        }
        switch rule {
        case .deliveredOnline, .lowPriorityInOrder:
            return delivered(fromStorage: fromStorage)
        case .deliveredOnReconnect:
            return delivered(fromStorage: true)
        case .storeAndForward:
            return .storedDeviceOffline
        case .expirationZero, .alreadyExpired, .expiredWhileStored, .storageLimit:
            return .discardedExpired
        case .backgroundBudget:
            // Over the budget the model never forwards the push, so its history ends held for power.
            return outcome == .throttled ? .storedPowerConsiderations : delivered(fromStorage: fromStorage)
        case .liveActivityStart, .liveActivityUpdate, .liveActivityEnd:
            return delivered(fromStorage: fromStorage)
        case .liveActivityEnded, .liveActivityOutOfDate:
            // APNs delivered it; ActivityKit on the device ignored it.
            return fromStorage ? .deliveredToDeviceFromStorage : .deliveredToDevice
        case .liveActivityUnknownToken:
            return fromStorage ? .discardedTokenUnregisteredFromStorage : .discardedTokenUnregistered
        case .oneStoredPerApp, .collapseIDReplacement, .tap:
            return nil
        }
    }
}
