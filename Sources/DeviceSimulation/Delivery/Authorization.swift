import APNsModel
/// The user's notification permission for the app (`UNAuthorizationStatus`), device-rules §7.
public enum Authorization: String, CaseIterable, Sendable, Hashable, Codable {
    /// Alerts, sounds and badges allowed.
    case authorized
    /// Quiet delivery: Notification Center only, without sound.
    case provisional
    /// The user said no: nothing is presented.
    case denied
    /// The user was never asked: nothing is presented.
    case notDetermined
}
