import APNsModel
/// The app and device a push is simulated against (docs/device-rules.md#inputs).
///
/// Every property has the default of docs/device-rules.md#inputs, so `DeviceProfile()` is a foreground, authorized
/// app whose delegate returns `[banner, sound, badge]`. Decoding accepts any subset of the keys.
public struct DeviceProfile: Sendable, Hashable, Codable {
    /// Where the app is when the push arrives.
    public var state: AppState
    /// The user's notification permission.
    public var authorization: Authorization
    /// What the app's `willPresent` returns in the foreground, or that it has no delegate.
    public var foregroundPresentation: ForegroundPresentation
    /// Whether the app has the Background Modes › Remote notifications capability.
    public var backgroundModesRemoteNotification: Bool
    /// Whether the app ships a Notification Service Extension.
    public var notificationServiceExtension: Bool
    /// Whether the app routes foreground pushes to in-app notifications (device-rules §4).
    public var inAppRouting: Bool
    /// Entitlements the app holds.
    public var entitlements: Set<Entitlement>
    /// Whether the app reports a call to CallKit for every VoIP push (iOS terminates apps that do not).
    public var reportsIncomingCalls: Bool

    /// Makes a profile; every argument defaults to its default in docs/device-rules.md#inputs.
    public init(
        state: AppState = .foreground,
        authorization: Authorization = .authorized,
        foregroundPresentation: ForegroundPresentation = .standard,
        backgroundModesRemoteNotification: Bool = true,
        notificationServiceExtension: Bool = false,
        inAppRouting: Bool = false,
        entitlements: Set<Entitlement> = [],
        reportsIncomingCalls: Bool = true
    ) {
        self.state = state
        self.authorization = authorization
        self.foregroundPresentation = foregroundPresentation
        self.backgroundModesRemoteNotification = backgroundModesRemoteNotification
        self.notificationServiceExtension = notificationServiceExtension
        self.inAppRouting = inAppRouting
        self.entitlements = entitlements
        self.reportsIncomingCalls = reportsIncomingCalls
    }

    private enum CodingKeys: String, CodingKey {
        case state, authorization, foregroundPresentation, backgroundModesRemoteNotification
        case notificationServiceExtension, inAppRouting, entitlements, reportsIncomingCalls
    }

    /// Reads a profile; missing keys take their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = DeviceProfile()
        state = try c.decodeIfPresent(AppState.self, forKey: .state) ?? d.state
        authorization = try c.decodeIfPresent(Authorization.self, forKey: .authorization) ?? d.authorization
        foregroundPresentation =
            try c.decodeIfPresent(ForegroundPresentation.self, forKey: .foregroundPresentation)
            ?? d.foregroundPresentation
        backgroundModesRemoteNotification =
            try c.decodeIfPresent(Bool.self, forKey: .backgroundModesRemoteNotification)
            ?? d.backgroundModesRemoteNotification
        notificationServiceExtension =
            try c.decodeIfPresent(Bool.self, forKey: .notificationServiceExtension) ?? d.notificationServiceExtension
        inAppRouting = try c.decodeIfPresent(Bool.self, forKey: .inAppRouting) ?? d.inAppRouting
        entitlements = try c.decodeIfPresent(Set<Entitlement>.self, forKey: .entitlements) ?? d.entitlements
        reportsIncomingCalls = try c.decodeIfPresent(Bool.self, forKey: .reportsIncomingCalls) ?? d.reportsIncomingCalls
    }

    /// Writes every key, sets in a fixed order.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(state, forKey: .state)
        try c.encode(authorization, forKey: .authorization)
        try c.encode(foregroundPresentation, forKey: .foregroundPresentation)
        try c.encode(backgroundModesRemoteNotification, forKey: .backgroundModesRemoteNotification)
        try c.encode(notificationServiceExtension, forKey: .notificationServiceExtension)
        try c.encode(inAppRouting, forKey: .inAppRouting)
        try c.encode(entitlements.sorted { $0.rawValue < $1.rawValue }, forKey: .entitlements)
        try c.encode(reportsIncomingCalls, forKey: .reportsIncomingCalls)
    }
}
