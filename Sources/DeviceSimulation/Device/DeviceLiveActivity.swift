import APNsModel
/// One Live Activity on the device (rule 15), as it stands at a screen's instant: its current content state and
/// whether it is stale, ended or dismissed.
///
/// An activity is identified by its push token: one the app started itself has the token it reported
/// (``DeviceChange/liveActivityStarted(token:contentState:)``); one a push-to-start push created has `startedBy`
/// (that push's `apns-id`) and no token until the app reports it (``DeviceChange/liveActivityToken(startedBy:token:)``).
///
/// JSON (``json``): `{"token", "started_by", "attributes_type", "content_state", "started_at", "updated_at",
/// "stale_date", "stale", "ended", "ended_at", "ended_by", "dismissal_date", "dismissal_source", "dismissed"}`;
/// times in milliseconds since 1970, absent values `null`; `ended_by` is `"push"` or `"maximum-duration"`,
/// `dismissal_source` is `"payload"` (its `dismissal-date`) or `"model"` (the dismissal setting).
public struct DeviceLiveActivity: Sendable, Hashable {
    /// Why an activity ended.
    public enum EndReason: String, CaseIterable, Sendable, Hashable {
        /// An `end` push.
        case push
        /// It was active for the maximum duration (Apple: eight hours) and the system ended it.
        case maximumDuration = "maximum-duration"
    }

    /// Where the dismissal date came from.
    public enum DismissalSource: String, CaseIterable, Sendable, Hashable {
        /// The `end` push's `dismissal-date`.
        case payload
        /// The model's dismissal setting (Apple: "up to four hours").
        case model
    }

    /// The push token updates are sent to, `nil` while unknown.
    public var token: String?
    /// The `apns-id` of the push-to-start push that created it; `nil` when the app started it.
    public var startedBy: String?
    /// `aps.attributes-type` of the push-to-start push.
    public var attributesType: String?
    /// The current `content-state`.
    public var contentState: JSONValue
    /// When it started, in milliseconds since 1970.
    public var startedAt: Int64
    /// When its content state last changed, in milliseconds since 1970.
    public var updatedAt: Int64
    /// `aps.timestamp` of the last push applied, in milliseconds since 1970 (older pushes are ignored).
    public var timestamp: Int64?
    /// `aps.stale-date` of the last push applied, in milliseconds since 1970.
    public var staleDate: Int64?
    /// When it ended, in milliseconds since 1970; `nil` while active.
    public var endedAt: Int64?
    /// Why it ended.
    public var endedBy: EndReason?
    /// When the system removes it from the lock screen, in milliseconds since 1970; set once it ended.
    public var dismissalDate: Int64?
    /// Where `dismissalDate` came from.
    public var dismissalSource: DismissalSource?
    /// Whether `staleDate` has passed at the screen's instant.
    public var stale: Bool
    /// Whether it was removed from the lock screen at the screen's instant.
    public var dismissed: Bool

    /// Whether it has ended at the screen's instant.
    public var ended: Bool { endedAt != nil }

    /// Makes an active activity.
    public init(
        token: String?, startedBy: String?, attributesType: String?, contentState: JSONValue, startedAt: Int64,
        timestamp: Int64?, staleDate: Int64?
    ) {
        self.token = token
        self.startedBy = startedBy
        self.attributesType = attributesType
        self.contentState = contentState
        self.startedAt = startedAt
        self.updatedAt = startedAt
        self.timestamp = timestamp
        self.staleDate = staleDate
        self.stale = false
        self.dismissed = false
    }

    /// Ends the activity at `time`; the system removes it at the payload's `dismissal-date` (`nil` when the push
    /// has none), or after the model's dismissal time, whichever comes first (ActivityKit: "after the specified date
    /// or after four hours … whichever comes first"); a date before the end removes it at once.
    mutating func end(at time: Int64, by reason: EndReason, requestedDismissal: Int64?, settings: DeviceSettings) {
        let latest = DeviceTime.adding(settings.liveActivityDismissalMillis, to: time)
        endedAt = time
        endedBy = reason
        if let requestedDismissal, requestedDismissal < latest {
            dismissalDate = max(time, requestedDismissal)
            dismissalSource = .payload
        } else {
            dismissalDate = latest
            dismissalSource = .model
        }
    }

    /// The activity as it stands at `time`: ended by the system if it has been active for the maximum duration,
    /// with `stale` and `dismissed` set for that instant.
    func observed(at time: Int64, settings: DeviceSettings) -> DeviceLiveActivity {
        var copy = self
        let limit = DeviceTime.adding(settings.liveActivityMaximumDurationMillis, to: startedAt)
        if copy.endedAt == nil, time >= limit {
            copy.end(at: limit, by: .maximumDuration, requestedDismissal: nil, settings: settings)
        }
        copy.stale = copy.staleDate.map { time >= $0 } ?? false
        copy.dismissed = copy.dismissalDate.map { time >= $0 } ?? false
        return copy
    }

    /// The JSON form.
    public var json: JSONValue {
        .object([
            .init("token", .string(orNull: token)),
            .init("started_by", .string(orNull: startedBy)),
            .init("attributes_type", .string(orNull: attributesType)),
            .init("content_state", contentState),
            .init("started_at", .integer(startedAt)),
            .init("updated_at", .integer(updatedAt)),
            .init("stale_date", .integer(orNull: staleDate)),
            .init("stale", .bool(stale)),
            .init("ended", .bool(ended)),
            .init("ended_at", .integer(orNull: endedAt)),
            .init("ended_by", .string(orNull: endedBy?.rawValue)),
            .init("dismissal_date", .integer(orNull: dismissalDate)),
            .init("dismissal_source", .string(orNull: dismissalSource?.rawValue)),
            .init("dismissed", .bool(dismissed)),
        ])
    }
}
