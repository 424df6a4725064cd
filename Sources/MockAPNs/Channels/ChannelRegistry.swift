import APNsModel
import Foundation
import JSON
import Support

/// Broadcast channels for Live Activities, per bundle ID, as the channel-management API creates them.
public final class ChannelRegistry: Sendable {
    /// A channel's fixed configuration.
    public struct Channel: Sendable, Equatable {
        /// The channel ID handed to the app (base64).
        public var id: String
        /// 0: no stored messages; 1: the newest message is stored for up to 8 hours.
        public var messageStoragePolicy: Int
    }

    /// APNs's documented ceiling: 10,000 channels per app and environment.
    public static let limitPerApp = 10_000
    /// The mock's own ceiling over every app together, so that creating channels for ever new bundle IDs
    /// cannot grow the server's memory without bound (~150 bytes a channel).
    public static let limitInTotal = 100_000

    private struct State {
        var byApp: [String: [String: Channel]] = [:]
        var total = 0
    }

    private let state = Locked(State())
    private let perApp: Int
    private let inTotal: Int

    /// An empty store.
    public convenience init() {
        self.init(limitPerApp: Self.limitPerApp, limitInTotal: Self.limitInTotal)
    }

    /// An empty store with other limits (tests).
    init(limitPerApp: Int, limitInTotal: Int) {
        perApp = limitPerApp
        inTotal = limitInTotal
    }

    /// Creates a channel with `messageStoragePolicy` (0 or 1: the body the model accepted), or says why not: the
    /// app's or the mock's ceiling is reached.
    func create(bundleID: String, messageStoragePolicy: Int) -> Result<Channel, APNsReason> {
        var random = [UInt8](repeating: 0, count: 16)
        for i in random.indices { random[i] = UInt8.random(in: 0...255) }
        let channel = Channel(id: Base64.encodedString(random, alphabet: .standard, padded: true),
                              messageStoragePolicy: messageStoragePolicy)
        return state.withLock { state in
            guard state.byApp[bundleID, default: [:]].count < perApp, state.total < inTotal else {
                return .failure(.cannotCreateChannelConfig)
            }
            state.byApp[bundleID, default: [:]][channel.id] = channel
            state.total += 1
            return .success(channel)
        }
    }

    /// The channel `id` of `bundleID`, if it exists.
    public func channel(bundleID: String, id: String) -> Channel? {
        state.withLock { $0.byApp[bundleID]?[id] }
    }

    /// Deletes a channel; returns whether it existed.
    func delete(bundleID: String, id: String) -> Bool {
        state.withLock { state in
            guard state.byApp[bundleID]?.removeValue(forKey: id) != nil else { return false }
            state.total -= 1
            if state.byApp[bundleID]?.isEmpty == true { state.byApp[bundleID] = nil }
            return true
        }
    }

    /// Adds a channel with a chosen ID (tests that replay recorded channel IDs).
    func insert(bundleID: String, channel: Channel) {
        state.withLock { state in
            if state.byApp[bundleID, default: [:]].updateValue(channel, forKey: channel.id) == nil { state.total += 1 }
        }
    }

    /// Every channel ID of `bundleID`.
    public func all(bundleID: String) -> [String] {
        state.withLock { ($0.byApp[bundleID] ?? [:]).keys.sorted() }
    }
}
