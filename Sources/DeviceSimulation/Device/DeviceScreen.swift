import APNsModel
/// What a virtual device shows and holds at one instant (device-rules §11–§15): computed by
/// ``DeviceTimeline/screen(at:)`` from the device's events up to that instant.
///
/// JSON (``json``): `{"at", "token", "online", "app_state", "badge", "notifications": [ …newest first… ],
/// "groups": [ {"thread_id", "notifications"} ], "stored": [ … ], "live_activities": [ … ], "sounds": [ … ],
/// "background_budget": {…, "source": "model"}, "model": {…the model's numbers in use…}}`.
public struct DeviceScreen: Sendable, Hashable {
    /// The instant shown, in milliseconds since 1970.
    public var at: Int64
    /// The device token (``DeviceSettings/token``).
    public var token: String?
    /// Whether the device reaches APNs.
    public var online: Bool
    /// The app's state.
    public var appState: AppState
    /// The app icon's badge: the last value a delivered push set (0: no badge).
    public var badge: Int
    /// Notification Center and the lock screen, newest first.
    public var notifications: [DeviceNotification]
    /// What APNs holds for the device while it is offline, oldest first.
    public var stored: [DeviceStoredPush]
    /// Live Activities, in the order they started (dismissed ones included, marked).
    public var liveActivities: [DeviceLiveActivity]
    /// Sounds played so far, oldest first.
    public var sounds: [DeviceSound]
    /// The background budget at this instant.
    public var backgroundBudget: DeviceBackgroundBudget
    /// The settings in force, whose model numbers the JSON reports under `"model"`.
    public var settings: DeviceSettings

    /// Makes a screen.
    public init(
        at: Int64, token: String?, online: Bool, appState: AppState, badge: Int, notifications: [DeviceNotification],
        stored: [DeviceStoredPush], liveActivities: [DeviceLiveActivity], sounds: [DeviceSound],
        backgroundBudget: DeviceBackgroundBudget, settings: DeviceSettings
    ) {
        self.at = at
        self.token = token
        self.online = online
        self.appState = appState
        self.badge = badge
        self.notifications = notifications
        self.stored = stored
        self.liveActivities = liveActivities
        self.sounds = sounds
        self.backgroundBudget = backgroundBudget
        self.settings = settings
    }

    /// The notifications grouped by `thread-id` as the lock screen stacks them, the group with the newest first.
    public var groups: [DeviceNotificationGroup] { DeviceNotificationGroup.grouping(notifications) }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("at", .integer(at)),
            .init("token", .string(orNull: token)),
            .init("online", .bool(online)),
            .init("app_state", .string(appState.rawValue)),
            .init("badge", .integer(Int64(badge))),
            .init("notifications", .array(notifications.map(\.json))),
            .init("groups", .array(groups.map(\.json))),
            .init("stored", .array(stored.map(\.json))),
            .init("live_activities", .array(liveActivities.map(\.json))),
            .init("sounds", .array(sounds.map(\.json))),
            .init("background_budget", backgroundBudget.json),
            .init("model", settings.modelJSON),
        ])
    }
}
