import APNsModel
import DeviceSimulation
import Support

/// What happened to each virtual device besides its pushes, in the order it was told: online and offline, app state,
/// settings, taps, Live Activity tokens (``DeviceChange``), each at an instant.
///
/// The server keeps only events: a device's screen is computed from these and the device's accepted pushes (the
/// recording's) by ``DeviceTimeline``, for any moment, whether the pushes come from memory, a record file or the store.
/// Bounded like the device registry: at most ``maxDevices`` tokens and ``maxChangesPerDevice`` changes each.
public final class DeviceChangeLog: Sendable {
    /// The most devices with changes.
    public static let maxDevices = 10_000
    /// The most changes kept per device; the oldest give way (a device's current settings stay, as the newest
    /// settings change is kept when an older one is dropped).
    public static let maxChangesPerDevice = 1_000

    /// The most push-to-start tokens one device may declare.
    public static let maxPushToStartTokens = 16

    private let changes = Locked<[String: [DeviceEvent]]>([:])
    private let pushToStart = Locked<[String: [String]]>([:])

    /// An empty log.
    public init() {}

    /// Records `event` (a ``DeviceEvent/Kind/change(_:)``) for `token`; throws when `token` would be one device too many.
    public func append(_ event: DeviceEvent, token: String) throws(DeviceRegistryError) {
        guard case .change = event.kind else { return }   // pushes come from the recording, never from here
        let key = token.lowercased()
        let added: Bool = changes.withLock { changes in
            if changes[key] == nil, changes.count >= Self.maxDevices { return false }
            var list = changes[key, default: []]
            list.append(event)
            if list.count > Self.maxChangesPerDevice { Self.dropOldest(from: &list) }
            changes[key] = list
            return true
        }
        if !added { throw .full(limit: Self.maxDevices) }
    }

    /// Declares `tokens` as `device`'s Live Activity push-to-start tokens (replacing earlier ones): pushes to them
    /// belong on the device's timeline, as pushes to its activities' own tokens do.
    public func setPushToStartTokens(_ tokens: [String], device: String) throws(DeviceRegistryError) {
        guard tokens.count <= Self.maxPushToStartTokens else {
            throw .outOfBounds("a device declares at most \(Self.maxPushToStartTokens) push-to-start tokens, not \(tokens.count)")
        }
        pushToStart.withLock { $0[device.lowercased()] = tokens.map { $0.lowercased() } }
    }

    /// The tokens besides `device`'s own whose pushes belong on its timeline: its push-to-start tokens and the tokens
    /// of the Live Activities its changes name.
    public func relatedTokens(device: String) -> [String] {
        let key = device.lowercased()
        var tokens = pushToStart.withLock { $0[key] ?? [] }
        for event in events(token: key) {
            switch event.kind {
            case .change(.liveActivityStarted(let token, _)), .change(.liveActivityToken(_, let token)):
                if !tokens.contains(token.lowercased()) { tokens.append(token.lowercased()) }
            default:
                continue
            }
        }
        return tokens.filter { $0 != key }
    }

    /// `token`'s changes, in the order they were recorded.
    public func events(token: String) -> [DeviceEvent] {
        changes.withLock { $0[token.lowercased()] ?? [] }
    }

    /// Every device's changes by token, in the order they were recorded.
    public func all() -> [String: [DeviceEvent]] {
        changes.withLock { $0 }
    }

    /// The tokens with changes.
    public var tokens: [String] {
        changes.withLock { Array($0.keys) }
    }

    /// Forgets `token`'s changes; whether it had any.
    @discardableResult
    public func remove(token: String) -> Bool {
        let hadTokens = pushToStart.withLock { $0.removeValue(forKey: token.lowercased()) != nil }
        return changes.withLock { $0.removeValue(forKey: token.lowercased()) != nil } || hadTokens
    }

    /// Puts `changes` (by token, oldest first) in place of every device's changes, as the shared store holds them
    /// (`serve --store`); the push-to-start tokens stay this instance's. Past the bounds, the newest devices and
    /// changes are kept.
    public func replaceChanges(with changes: [String: [DeviceEvent]]) {
        var bounded: [String: [DeviceEvent]] = [:]
        for (token, events) in changes.sorted(by: { ($0.value.last?.time ?? 0) > ($1.value.last?.time ?? 0) })
            .prefix(Self.maxDevices) {
            bounded[token.lowercased()] = Array(events.filter { if case .change = $0.kind { return true } else { return false } }
                .suffix(Self.maxChangesPerDevice))
        }
        self.changes.withLock { $0 = bounded }
    }

    /// Forgets every device's changes.
    public func removeAll() {
        changes.withLock { $0.removeAll() }
        pushToStart.withLock { $0.removeAll() }
    }

    /// Drops the oldest change that is not the newest settings change, so a long-lived device keeps its settings.
    private static func dropOldest(from list: inout [DeviceEvent]) {
        let newestSettings = list.lastIndex { if case .change(.settings) = $0.kind { return true } else { return false } }
        let victim = list.indices.first { $0 != newestSettings } ?? list.startIndex
        list.remove(at: victim)
    }
}
