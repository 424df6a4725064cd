import APNsModel
import Foundation
import Synchronization
import Support

/// The devices the mock pretends to know. Every well-formed token is a live device unless set here.
public final class DeviceRegistry: Sendable {
    private struct Entry {
        var state: DeviceState
        var setAtMillis: Int64
        var recentPushes: [Int64] = []   // epoch ms, only for rate-limited tokens, at most `max` kept
    }

    /// The entries and what they use of the limits, under one lock.
    private struct Storage {
        var entries: [String: Entry] = [:]
        /// Topics listed by `topics` states.
        var topics = 0
        /// The sum of `max` over `rateLimited` states.
        var ratePushes = 0
    }

    private let storage = Locked(Storage())
    /// Whether no token has a state: written under `storage`'s lock whenever it changes, read without it so that
    /// pushes to an empty registry (the usual case) do not take the lock at all.
    private let isEmpty = Atomic<Bool>(true)

    /// The most devices the registry holds (mock-wide, like the channel registry's ceiling).
    public static let limitDevices = DeviceRegistryLimits.standard.devices
    /// The longest token the registry keeps, in hex characters: far past the longest seen (160, simulators).
    public static let maximumTokenLength = 512

    /// This registry's limits.
    public let limits: DeviceRegistryLimits

    /// An empty registry with the standard limits: every token is live.
    public convenience init() {
        self.init(limits: .standard)
    }

    /// An empty registry with other limits (tests).
    init(limits: DeviceRegistryLimits) {
        self.limits = limits
    }

    /// Sets what `token` should answer from now on, or says why not: the token or state is outside the bounds
    /// (``maximumTokenLength``, ``DeviceState/boundsProblem``), or storing it would pass one of ``limits``.
    /// Replacing a token's state only counts the difference, so a known token can always get a smaller state.
    public func set(_ token: String, _ state: DeviceState) throws(DeviceRegistryError) {
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw .outOfBounds("a device token has at most \(Self.maximumTokenLength) hex characters (got \(token.utf8.count))")
        }
        if let problem = state.boundsProblem { throw .outOfBounds(problem) }
        let now = Timestamp.nowMillis()
        let key = token.lowercased()
        let refusal = storage.withLock { storage -> DeviceRegistryError? in
            let old = storage.entries[key]?.state
            // Each count is bounded by its limit and each state's share by DeviceState's bounds, so no sum overflows.
            let topics = storage.topics - Self.topicCount(old) + Self.topicCount(state)
            let ratePushes = storage.ratePushes - Self.ratePushCount(old) + Self.ratePushCount(state)
            if old == nil, storage.entries.count >= limits.devices { return .full(limit: limits.devices) }
            if topics > limits.topics, topics > storage.topics { return .topicsFull(limit: limits.topics) }
            if ratePushes > limits.ratePushes, ratePushes > storage.ratePushes { return .ratePushesFull(limit: limits.ratePushes) }
            storage.entries[key] = Entry(state: state, setAtMillis: now)
            storage.topics = topics
            storage.ratePushes = ratePushes
            isEmpty.store(false, ordering: .releasing)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Makes `token` a live device again.
    public func remove(_ token: String) {
        storage.withLock { storage in
            if let old = storage.entries.removeValue(forKey: token.lowercased()) {
                storage.topics -= Self.topicCount(old.state)
                storage.ratePushes -= Self.ratePushCount(old.state)
            }
            isEmpty.store(storage.entries.isEmpty, ordering: .releasing)
        }
    }

    /// Forgets every device.
    public func removeAll() {
        storage.withLock { storage in
            storage = Storage()
            isEmpty.store(true, ordering: .releasing)
        }
    }

    /// Makes the registry hold exactly `states` (a shared store's copy, `serve --store`): tokens whose state is
    /// unchanged keep their history (a rate-limited token's recent pushes); states past the limits are skipped, as
    /// `set` would refuse them. Returns how many were skipped.
    @discardableResult
    public func replaceAll(with states: [String: DeviceState]) -> Int {
        let now = Timestamp.nowMillis()
        return storage.withLock { storage in
            var next = Storage()
            var skipped = 0
            for (token, state) in states {
                let key = token.lowercased()
                let topics = next.topics + Self.topicCount(state), ratePushes = next.ratePushes + Self.ratePushCount(state)
                guard key.utf8.count <= Self.maximumTokenLength, state.boundsProblem == nil, next.entries.count < limits.devices,
                      topics <= limits.topics, ratePushes <= limits.ratePushes else {
                    skipped += 1
                    continue
                }
                if let kept = storage.entries[key], kept.state == state {
                    next.entries[key] = kept
                } else {
                    next.entries[key] = Entry(state: state, setAtMillis: now)
                }
                next.topics = topics
                next.ratePushes = ratePushes
            }
            storage = next
            isEmpty.store(next.entries.isEmpty, ordering: .releasing)
            return skipped
        }
    }

    /// The topics `state` lists (its share of ``DeviceRegistryLimits/topics``).
    private static func topicCount(_ state: DeviceState?) -> Int {
        if case .topics(let topics)? = state { return topics.count }
        return 0
    }

    /// The push times `state` may make the registry remember (its share of ``DeviceRegistryLimits/ratePushes``).
    private static func ratePushCount(_ state: DeviceState?) -> Int {
        if case .rateLimited(let max, _)? = state { return max }
        return 0
    }

    /// Every token with a state, keyed by lowercase token.
    public func all() -> [String: DeviceState] {
        storage.withLock { $0.entries.mapValues(\.state) }
    }

    /// Loads a `--devices` file: `[{"token": "…", "state": …}, …]` or `{"devices": [...]}`. An entry may also change
    /// the virtual device (``DeviceUpdate``: `online`, `offline_until`, `app_state`, `settings`); those changes go to
    /// `changes` (and are passed over without one).
    public func load(contentsOf path: String, changes: DeviceChangeLog? = nil) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        let json: JSONValue
        do { json = try JSONValue.parse(Array(data)) } catch { throw .invalidJSON(path, "\(error)") }
        let list: [JSONValue]
        switch json {
        case .array(let items): list = items
        case .object where json["devices"] != nil:
            guard case .array(let items) = json["devices"]! else { throw .invalidDevice("\(path): \"devices\" must be a list") }
            list = items
        default:
            throw .invalidDevice("\(path): expected a list of {\"token\": …, \"state\": …} objects")
        }
        for item in list {
            guard let token = item["token"]?.stringValue, DeviceToken.isValid(token) else {
                throw .invalidDevice("\(path): every device needs a \"token\" of even-length hex")
            }
            let update = try DeviceUpdate(json: item, now: Timestamp.nowMillis())
            do {
                if let state = update.state { try set(token, state) }
                for change in update.changes { try changes?.append(change, token: token) }
                if let tokens = update.pushToStartTokens { try changes?.setPushToStartTokens(tokens, device: token) }
            } catch {
                throw .invalidDevice("\(path): \(error)")
            }
        }
    }

    /// What the registry says about a push of `topic` to `token` now: nil for "deliver", else the
    /// rejection with its 410 timestamp where APNs sends one. Counts the push for rate-limited tokens.
    func verdict(token: String, topic: String, now: Int64) -> (reason: APNsReason, timestamp: Int64?)? {
        if isEmpty.load(ordering: .acquiring) { return nil }
        return storage.withLock { storage in
            guard !storage.entries.isEmpty else { return nil }   // the usual case: no token to look up
            let key = token.lowercased()
            guard var entry = storage.entries[key] else { return nil }
            switch entry.state {
            case .unregistered(let timestamp):
                return (.unregistered, timestamp ?? entry.setAtMillis)
            case .expired:
                return (.expiredToken, entry.setAtMillis)
            case .topics(let topics):
                return topics.contains(topic) ? nil : (.deviceTokenNotForTopic, nil)
            case .otherEnvironment:
                return (.badDeviceToken, nil)
            case .rateLimited(let max, let window):
                // `set` keeps window within a day, so this cannot overflow; saturate anyway rather than trap.
                let windowMillis = Int64(window).multipliedReportingOverflow(by: 1000)
                let start = now.subtractingReportingOverflow(windowMillis.partialValue)
                let since = windowMillis.overflow || start.overflow ? Int64.min : start.partialValue
                entry.recentPushes.removeAll { $0 <= since }
                if entry.recentPushes.count >= max {
                    storage.entries[key] = entry
                    return (.tooManyRequests, nil)
                }
                entry.recentPushes.append(now)
                storage.entries[key] = entry
                return nil
            }
        }
    }
}
