import APNsModel
/// Entitlements that change how an alert interrupts the user (device-rules §8).
public enum Entitlement: String, CaseIterable, Sendable, Hashable, Codable {
    /// `com.apple.developer.usernotifications.critical-alerts`: critical alerts play through silent mode and Focus.
    case criticalAlerts
    /// The time-sensitive notifications capability: `interruption-level: time-sensitive` breaks through Focus.
    case timeSensitive
}
