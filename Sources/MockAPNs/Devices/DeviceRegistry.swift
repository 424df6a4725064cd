import APNsModel
import Foundation
import HTTP2
import Synchronization

/// The devices the mock pretends to know. Every well-formed token is a live device unless set here.
public final class DeviceRegistry: Sendable {
    private struct Entry {
        var state: DeviceState
        var setAtMillis: Int64
        var recentPushes: [Int64] = []   // epoch ms, only for rate-limited tokens, at most `max` kept
    }

    private let entries = Locked<[String: Entry]>([:])
    /// Whether no token has a state: written under `entries`' lock whenever it changes, read without it so that
    /// pushes to an empty registry (the usual case) do not take the lock at all.
    private let isEmpty = Atomic<Bool>(true)

    /// The most devices the registry holds (mock-wide, like the channel store's ceiling): enough for any test
    /// suite, and a bound on memory (~300 bytes a device, up to ~30 KB with 100 topics).
    public static let limitDevices = 100_000
    /// The longest token the registry keeps, in hex characters: far past the longest seen (160, simulators).
    public static let maximumTokenLength = 512

    private let limit: Int

    /// An empty registry: every token is live.
    public convenience init() {
        self.init(limitDevices: Self.limitDevices)
    }

    /// An empty registry holding at most `limitDevices` devices (tests).
    init(limitDevices: Int) {
        limit = limitDevices
    }

    /// Sets what `token` should answer from now on. Replacing a known token's state always works; a new token
    /// needs room (``limitDevices``), and the state must be within ``DeviceState/boundsProblem``'s bounds.
    public func set(_ token: String, _ state: DeviceState) throws(DeviceRegistryError) {
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw .outOfBounds("a device token has at most \(Self.maximumTokenLength) hex characters (got \(token.utf8.count))")
        }
        if let problem = state.boundsProblem { throw .outOfBounds(problem) }
        let now = Timestamp.nowMillis()
        let key = token.lowercased()
        let stored = entries.withLock { entries -> Bool in
            guard entries[key] != nil || entries.count < limit else { return false }
            entries[key] = Entry(state: state, setAtMillis: now)
            isEmpty.store(false, ordering: .releasing)
            return true
        }
        guard stored else { throw .full(limit: limit) }
    }

    /// Makes `token` a live device again.
    public func remove(_ token: String) {
        entries.withLock { entries in
            entries.removeValue(forKey: token.lowercased())
            isEmpty.store(entries.isEmpty, ordering: .releasing)
        }
    }

    /// Forgets every device.
    public func removeAll() {
        entries.withLock { entries in
            entries.removeAll()
            isEmpty.store(true, ordering: .releasing)
        }
    }

    /// Every token with a state, keyed by lowercase token.
    public func all() -> [String: DeviceState] {
        entries.withLock { $0.mapValues(\.state) }
    }

    /// Loads a `--devices` file: `[{"token": "…", "state": …}, …]` or `{"devices": [...]}`.
    public func load(contentsOf path: String) throws(ConfigurationError) {
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
            let state = try DeviceState(json: item)
            do { try set(token, state) } catch { throw .invalidDevice("\(path): \(error)") }
        }
    }

    /// What the registry says about a push of `topic` to `token` now: nil for "deliver", else the
    /// rejection with its 410 timestamp where APNs sends one. Counts the push for rate-limited tokens.
    func verdict(token: String, topic: String, now: Int64) -> (reason: APNsReason, timestamp: Int64?)? {
        if isEmpty.load(ordering: .acquiring) { return nil }
        return entries.withLock { entries in
            guard !entries.isEmpty else { return nil }   // the usual case: no token to look up
            let key = token.lowercased()
            guard var entry = entries[key] else { return nil }
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
                    entries[key] = entry
                    return (.tooManyRequests, nil)
                }
                entry.recentPushes.append(now)
                entries[key] = entry
                return nil
            }
        }
    }
}
