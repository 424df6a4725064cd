import APNsModel
/// One thing that happens to a virtual device at an instant: APNs accepted a push for it, or the device changed.
///
/// A device's screen is a pure function of its events in time order (``DeviceTimeline``), so the server keeps only
/// events and computes the screen for any moment, from memory, a recording or the store alike.
public struct DeviceEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// APNs accepted this push for the device (answered 200). Its `apnsID` should be the `apns-id` APNs
        /// answered with (the server's generated one when the request had none): entries and notifications are
        /// named by it, and a tap finds its notification by it.
        case push(AcceptedPush)
        /// The device changed.
        case change(DeviceChange)
    }

    /// When it happened, in milliseconds since 1970 (the unit of a record's `received_at`).
    public var time: Int64
    /// What happened.
    public var kind: Kind

    /// Makes an event.
    public init(time: Int64, kind: Kind) {
        self.time = time
        self.kind = kind
    }

    /// APNs accepted `push` at `time`.
    public static func push(_ push: AcceptedPush, at time: Int64) -> DeviceEvent {
        DeviceEvent(time: time, kind: .push(push))
    }

    /// The device changed at `time`.
    public static func change(_ change: DeviceChange, at time: Int64) -> DeviceEvent {
        DeviceEvent(time: time, kind: .change(change))
    }

    /// Reads a change step, `{"at": <ms>, "change": …}` (``DeviceChange/init(json:extraKeys:)``). Pushes are not
    /// read from JSON here: they reach a timeline as the requests APNs accepted.
    public init(changeJSON json: JSONValue) throws(DeviceModelError) {
        guard let time = json["at"]?.integerValue else {
            throw .badValue(key: "at", expected: "an integer: milliseconds since 1970")
        }
        self.init(time: time, kind: .change(try DeviceChange(json: json, extraKeys: ["at"])))
    }
}
