import APNsModel
/// A virtual device over time (device-rules §11–§15): its settings and its events, replayed in time order to
/// answer what the device shows at an instant and what happened to each push up to then. Pure: the same settings
/// and events always give the same answers, and nothing is kept between calls.
///
/// ```swift
/// let timeline = DeviceTimeline(settings: settings, events: events)
/// let screen = timeline.screen(at: now).json          // what the control API serves
/// let entries = DeviceTimeline.json(timeline.entries(until: now))
/// ```
public struct DeviceTimeline: Sendable, Hashable {
    /// The settings the device starts with (``DeviceChange/settings(_:)`` events may replace them later).
    public let settings: DeviceSettings
    /// The events, in time order; events at the same instant keep the order they were given in.
    public let events: [DeviceEvent]

    /// Makes a timeline. The device starts online; `events` may come in any order and are sorted by time, stably.
    public init(settings: DeviceSettings = DeviceSettings(), events: [DeviceEvent]) {
        self.settings = settings
        self.events = events.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// What the device shows and APNs holds at `time` (milliseconds since 1970), after every event at or before it.
    public func screen(at time: Int64) -> DeviceScreen {
        replay(until: time).screen
    }

    /// What happened to each push up to `time` (milliseconds since 1970), inclusive, oldest first.
    public func entries(until time: Int64) -> [DeviceTimelineEntry] {
        replay(until: time).entries
    }

    /// The screen at `time` and the entries up to it, from one replay.
    public func replay(until time: Int64) -> (screen: DeviceScreen, entries: [DeviceTimelineEntry]) {
        var replay = DeviceReplay(settings: settings)
        for event in events where event.time <= time {
            replay.apply(event)
        }
        replay.advance(to: time)
        return (replay.screen(at: time), replay.entries)
    }

    /// Timeline entries as a JSON array (``DeviceTimelineEntry/json``).
    public static func json(_ entries: [DeviceTimelineEntry]) -> JSONValue {
        .array(entries.map(\.json))
    }
}
