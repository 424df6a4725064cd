import APNsModel
/// What happened to one push at one instant: delivered, stored, replaced, dropped, throttled, or tapped by the user.
///
/// A push can have several entries: stored when it arrives, then delivered when the device comes back online, or
/// replaced, or dropped when it expires. A push that was rejected never reaches a device and has none.
///
/// JSON (``json``): `{"apns_id": "…"|null, "time": <ms>, "outcome": "delivered", "rule": "11-delivered-online",
/// "console_state": "Delivered to Device"|null, "explanation": "…"}`, plus `"simulation": {…}` (``Simulation``,
/// exactly as `simulate` answers) on deliveries and `"tap": {…}` (``TapSimulation``) on taps. `console_state` is
/// the entry in the Push Notifications Console's words (``consoleState``, device-rules §16).
public struct DeviceTimelineEntry: Sendable, Hashable {
    /// What happened to the push.
    public enum Outcome: String, CaseIterable, Sendable, Hashable {
        /// Handed to the device; ``DeviceTimelineEntry/simulation`` says what the device did with it.
        case delivered
        /// Held by APNs while the device is offline.
        case stored
        /// Gone because a newer push took its place: the one stored push per app, or its `apns-collapse-id` in
        /// Notification Center.
        case replaced
        /// Gone without reaching the app: not storable, expired while stored, or ignored by ActivityKit.
        case dropped
        /// Not delivered: over the device's background budget (a model number).
        case throttled
        /// The user tapped its notification (or tried to); ``DeviceTimelineEntry/tap`` says what ran.
        case tapped
    }

    /// The push's `apns-id`, `nil` only when the caller fed a push without one.
    public var apnsID: String?
    /// When, in milliseconds since 1970.
    public var time: Int64
    /// What happened.
    public var outcome: Outcome
    /// The rule that decided.
    public var rule: DeviceRule
    /// The decision in a sentence, with the numbers involved (naming model numbers as model).
    public var explanation: String
    /// For a delivery: the per-push simulation (which app code ran, what was presented, warnings).
    public var simulation: Simulation?
    /// For a tap: what the tap ran.
    public var tap: TapSimulation?
    /// Decided when APNs forwarded a stored push, as the device came back online: the Console then says
    /// "(From Storage)" (``consoleState``).
    public var fromStorage: Bool
    /// For a delivery: the push would show something (an alert, a sound or a badge) while the app's notifications
    /// were `denied`, which the Console counts as Discarded - Disabled (``consoleState``).
    public var notificationsDenied: Bool

    /// Makes an entry.
    public init(
        apnsID: String?, time: Int64, outcome: Outcome, rule: DeviceRule, explanation: String,
        simulation: Simulation? = nil, tap: TapSimulation? = nil, fromStorage: Bool = false,
        notificationsDenied: Bool = false
    ) {
        self.apnsID = apnsID
        self.time = time
        self.outcome = outcome
        self.rule = rule
        self.explanation = explanation
        self.simulation = simulation
        self.tap = tap
        self.fromStorage = fromStorage
        self.notificationsDenied = notificationsDenied
    }

    /// The entry as the Push Notifications Console names a push's state ("Stored - Device Offline", "Delivered to
    /// Device (From Storage)", …, ``ConsoleState``), so a timeline reads in Apple's words beside the mock's rule; nil
    /// where device-rules §16 gives no state (a replacement, a tap).
    public var consoleState: String? {
        ConsoleState.of(rule: rule, outcome: outcome, fromStorage: fromStorage,
                        notificationsDenied: notificationsDenied)?.rawValue
    }

    /// The JSON form.
    public var json: JSONValue {
        var members: [JSONValue.JSONMember] = [
            .init("apns_id", .string(orNull: apnsID)),
            .init("time", .integer(time)),
            .init("outcome", .string(outcome.rawValue)),
            .init("rule", .string(rule.rawValue)),
            .init("console_state", .string(orNull: consoleState)),
            .init("explanation", .string(explanation)),
        ]
        if let simulation { members.append(.init("simulation", DeviceJSONReader.encode(simulation))) }
        if let tap { members.append(.init("tap", DeviceJSONReader.encode(tap))) }
        return .object(members)
    }
}
