import APNsModel
/// What a virtual device is, apart from the events on its timeline: the app the per-push simulation runs against,
/// and the numbers of the over-time model (device-rules §11–§15).
///
/// Apple does not publish the background budget, how long an ended Live Activity stays when the payload gives no
/// `dismissal-date` (only "up to four hours"), or how long APNs stores a push for an offline device (only "a limited
/// period"); those are settings here, with a documented default, and a screen reports them under `"model"`, never
/// as fact. The eight-hour limit on an active Live Activity is Apple's published number, a setting only so tests can
/// shorten it.
///
/// JSON (``init(json:)``, ``json``; every key optional on input, defaults as below):
/// `{"token": "…"|null, "profile": {…DeviceProfile…}, "background_budget_per_hour": 3,
/// "live_activity_dismissal_ms": 14400000, "live_activity_maximum_duration_ms": 28800000,
/// "storage_limit_ms": 2592000000}`.
public struct DeviceSettings: Sendable, Hashable {
    /// The device token, shown on the screen (the timeline does not filter pushes by it: the caller feeds one
    /// device's pushes; a Live Activity push is matched to its activity by the token it was sent to).
    public var token: String?
    /// The app: state, authorization, capabilities, in-app routing — the per-push simulator's input.
    public var profile: DeviceProfile
    /// Model: silent pushes the device lets wake the app per rolling hour (Apple: "not more than two or three").
    public var backgroundBudgetPerHour: Int64
    /// Model: how long an ended Live Activity stays on the lock screen when the payload names no earlier
    /// `dismissal-date` (Apple: "up to four hours"), in milliseconds.
    public var liveActivityDismissalMillis: Int64
    /// Apple: how long a Live Activity may stay active before the system ends it (eight hours), in milliseconds.
    public var liveActivityMaximumDurationMillis: Int64
    /// Model: how long APNs stores a push for an offline device at most (Apple: "a limited period"), in milliseconds.
    public var storageLimitMillis: Int64

    /// Model default of ``backgroundBudgetPerHour``: 3, the top of Apple's "two or three per hour".
    public static let defaultBackgroundBudgetPerHour: Int64 = 3
    /// Model default of ``liveActivityDismissalMillis``: four hours, the most Apple says an ended activity stays.
    public static let defaultLiveActivityDismissalMillis: Int64 = 4 * 3_600_000
    /// Apple's eight hours, the default of ``liveActivityMaximumDurationMillis``.
    public static let defaultLiveActivityMaximumDurationMillis: Int64 = 8 * 3_600_000
    /// Model default of ``storageLimitMillis``: 30 days.
    public static let defaultStorageLimitMillis: Int64 = 30 * 24 * 3_600_000

    /// The JSON keys, in the order ``json`` writes them.
    public static let jsonKeys = [
        "token", "profile", "background_budget_per_hour", "live_activity_dismissal_ms",
        "live_activity_maximum_duration_ms", "storage_limit_ms",
    ]

    /// Makes settings; every argument defaults to the documented default.
    public init(
        token: String? = nil,
        profile: DeviceProfile = DeviceProfile(),
        backgroundBudgetPerHour: Int64 = DeviceSettings.defaultBackgroundBudgetPerHour,
        liveActivityDismissalMillis: Int64 = DeviceSettings.defaultLiveActivityDismissalMillis,
        liveActivityMaximumDurationMillis: Int64 = DeviceSettings.defaultLiveActivityMaximumDurationMillis,
        storageLimitMillis: Int64 = DeviceSettings.defaultStorageLimitMillis
    ) {
        self.token = token
        self.profile = profile
        self.backgroundBudgetPerHour = backgroundBudgetPerHour
        self.liveActivityDismissalMillis = liveActivityDismissalMillis
        self.liveActivityMaximumDurationMillis = liveActivityMaximumDurationMillis
        self.storageLimitMillis = storageLimitMillis
    }

    /// Reads the JSON form; absent keys take their defaults, unknown keys and negative numbers are errors.
    public init(json: JSONValue) throws(DeviceModelError) {
        let reader = try DeviceJSONReader(json, allowed: Self.jsonKeys, prefix: "settings.")
        let defaults = DeviceSettings()
        token = try reader.optionalString("token")
        if let value = reader["profile"] {
            profile = try DeviceJSONReader.decode(DeviceProfile.self, from: value, key: "settings.profile")
        } else {
            profile = defaults.profile
        }
        backgroundBudgetPerHour = try reader.count("background_budget_per_hour") ?? defaults.backgroundBudgetPerHour
        liveActivityDismissalMillis = try reader.count("live_activity_dismissal_ms") ?? defaults.liveActivityDismissalMillis
        liveActivityMaximumDurationMillis =
            try reader.count("live_activity_maximum_duration_ms") ?? defaults.liveActivityMaximumDurationMillis
        storageLimitMillis = try reader.count("storage_limit_ms") ?? defaults.storageLimitMillis
    }

    /// The JSON form, every key written.
    public var json: JSONValue {
        .object([
            .init("token", .string(orNull: token)),
            .init("profile", DeviceJSONReader.encode(profile)),
            .init("background_budget_per_hour", .integer(backgroundBudgetPerHour)),
            .init("live_activity_dismissal_ms", .integer(liveActivityDismissalMillis)),
            .init("live_activity_maximum_duration_ms", .integer(liveActivityMaximumDurationMillis)),
            .init("storage_limit_ms", .integer(storageLimitMillis)),
        ])
    }

    /// The model's own numbers (those Apple does not publish), as a screen reports them under `"model"`.
    public var modelJSON: JSONValue {
        .object([
            .init("background_budget_per_hour", .integer(backgroundBudgetPerHour)),
            .init("live_activity_dismissal_ms", .integer(liveActivityDismissalMillis)),
            .init("storage_limit_ms", .integer(storageLimitMillis)),
        ])
    }
}
