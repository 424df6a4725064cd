import FCMModel
import JSON
import Support

/// The virtual Android devices behind Android registrations: what each app instance did with the messages it got
/// (fcm-rules §6.1), and, while it is offline, what FCM stores for it and hands over when it comes back (§6.2, §6.3).
/// A device is in the background and online until a test says otherwise. Bounded: the newest ``maxReceipts`` of
/// each device are kept, and at most ``maxStored`` stored messages per device and ``maxStoredInAll`` in all; a
/// device offered one more has its stored messages deleted, as FCM deletes them past 100 (§6.3).
public final class AndroidDevices: Sendable {
    /// Receipts kept per device, newest last.
    public static let maxReceipts = 100
    /// Messages stored per offline device, before collapsing, past which the mock deletes them all (FCM keeps
    /// ``FCMAndroidHandling/maximumPendingMessages`` after collapsing; this bounds memory before collapsing).
    public static let maxStored = 200
    /// Messages stored for every offline device together.
    public static let maxStoredInAll = 100_000

    /// What an app instance did with one message.
    public struct Receipt: Sendable, Equatable {
        /// Who handled it.
        public enum Handler: String, Sendable {
            /// The system tray showed the notification (app in the background).
            case systemTray = "system_tray"
            /// `FirebaseMessagingService.onMessageReceived` got it.
            case onMessageReceived = "on_message_received"
            /// FCM deleted the stored messages and called `onDeletedMessages` (§6.3).
            case onDeletedMessages = "on_deleted_messages"
        }

        /// The message's name (nil for `onDeletedMessages`, which stands for every message deleted).
        public var name: String?
        /// Who handled it.
        public var handledBy: Handler
        /// System tray: whether the tap's intent carries data.
        public var dataInIntent: Bool
        /// The notification's title and body as shown (`android.notification` over `notification`).
        public var title: String?
        public var body: String?
        /// The data the app gets (`android.data` over `data`).
        public var data: [FCMKeyValue]
        /// When the device got it (milliseconds since 1970, the mock's clock).
        public var receivedAtMillis: Int64
        /// Whether FCM had stored it while the device was offline.
        public var fromStorage: Bool

        /// The receipt as the control API serves it.
        public var json: JSONValue {
            var members: [JSONValue.JSONMember] = [
                .init("name", name.map(JSONValue.string) ?? .null), .init("handled_by", .string(handledBy.rawValue)),
            ]
            if handledBy == .systemTray { members.append(.init("data_in_intent", .bool(dataInIntent))) }
            if let title { members.append(.init("title", .string(title))) }
            if let body { members.append(.init("body", .string(body))) }
            members.append(.init("data", .object(data.map { .init($0.key, .string($0.value)) })))
            members.append(.init("received_at_ms", .integer(receivedAtMillis)))
            members.append(.init("from_storage", .bool(fromStorage)))
            return .object(members)
        }
    }

    /// What became of one message sent to a device.
    public enum Outcome: Sendable, Equatable {
        /// The device got it.
        case received(Receipt)
        /// The device is offline: FCM stores it for its `ttl`.
        case stored
        /// The device is offline and the `ttl` is 0: now or never, so never.
        case dropped
    }

    /// One device as the control API shows it.
    public struct Snapshot: Sendable {
        /// Whether the app is in the foreground.
        public var appInForeground: Bool
        /// Whether the device is connected to FCM.
        public var online: Bool
        /// What it received, oldest first.
        public var received: [Receipt]
        /// The names of the messages stored for it, oldest first.
        public var stored: [String]

        /// The device as the control API serves it.
        public var json: JSONValue {
            .object([
                .init("app_state", .string(appInForeground ? "foreground" : "background")),
                .init("online", .bool(online)),
                .init("received", .array(received.map(\.json))),
                .init("stored", .array(stored.map(JSONValue.string))),
            ])
        }
    }

    private struct Stored: Sendable {
        var message: FCMMessage
        var name: String
        var sentAtSeconds: Int64
    }

    private struct Device: Sendable {
        var appInForeground = false
        var online = true
        var received: [Receipt] = []
        var stored: [Stored] = []
        /// More than ``maxStored`` arrived while offline: on coming back the app is told they were deleted.
        var overflowed = false

        mutating func keep(_ receipt: Receipt) {
            received.append(receipt)
            if received.count > AndroidDevices.maxReceipts { received.removeFirst(received.count - AndroidDevices.maxReceipts) }
        }
    }

    private struct State: Sendable {
        var devices: [String: Device] = [:]
        /// Stored messages of every device together.
        var storedInAll = 0
    }

    private let state = Locked(State())

    /// No devices yet: each appears on its first message or change.
    public init() {}

    /// Delivers `message` (named `name`) to the device of registration `token` at `nowMillis`.
    public func deliver(_ message: FCMMessage, name: String, to token: String, nowMillis: Int64) -> Outcome {
        state.withLock { state in
            var device = state.devices[token] ?? Device()
            defer { state.devices[token] = device }
            guard device.online else {
                if (message.android?.ttlSeconds ?? FCMAndroidConfig.maximumTTLSeconds) == 0 { return .dropped }
                if device.stored.count >= Self.maxStored || state.storedInAll >= Self.maxStoredInAll {
                    state.storedInAll -= device.stored.count
                    device.stored.removeAll()
                    device.overflowed = true
                }
                if !device.overflowed {
                    device.stored.append(Stored(message: message, name: name, sentAtSeconds: nowMillis / 1000))
                    state.storedInAll += 1
                }
                return .stored
            }
            let receipt = Self.receipt(message, name: name, foreground: device.appInForeground, at: nowMillis, fromStorage: false)
            device.keep(receipt)
            return .received(receipt)
        }
    }

    /// Changes the device of `token`: the app's state and whether it is connected. Coming back online hands it what
    /// FCM stored (§6.2), or tells the app they were deleted (§6.3); returns what it received so.
    @discardableResult
    public func update(_ token: String, appInForeground: Bool?, online: Bool?, nowMillis: Int64) -> [Receipt] {
        state.withLock { state in
            var device = state.devices[token] ?? Device()
            defer { state.devices[token] = device }
            if let appInForeground { device.appInForeground = appInForeground }
            guard let online, online != device.online else { return [] }
            device.online = online
            guard online else { return [] }
            let stored = device.stored
            let overflowed = device.overflowed
            state.storedInAll -= stored.count
            device.stored = []
            device.overflowed = false
            let indices = FCMAndroidHandling.deliveredIndices(stored.map { ($0.message, $0.sentAtSeconds) }, reconnectAt: nowMillis / 1000)
            guard !overflowed, indices.count <= FCMAndroidHandling.maximumPendingMessages else {
                let deleted = Receipt(name: nil, handledBy: .onDeletedMessages, dataInIntent: false, title: nil, body: nil, data: [],
                                      receivedAtMillis: nowMillis, fromStorage: true)
                device.keep(deleted)
                return [deleted]
            }
            let arrived = indices.map { index in
                Self.receipt(stored[index].message, name: stored[index].name, foreground: device.appInForeground, at: nowMillis,
                             fromStorage: true)
            }
            for receipt in arrived { device.keep(receipt) }
            return arrived
        }
    }

    /// The device of `token` (a fresh one, in the background and online, when nothing reached it yet).
    public func snapshot(_ token: String) -> Snapshot {
        let device = state.withLock { $0.devices[token] } ?? Device()
        return Snapshot(appInForeground: device.appInForeground, online: device.online, received: device.received,
                        stored: device.stored.map(\.name))
    }

    /// Forgets what every device received and stored, and their states.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    private static func receipt(_ message: FCMMessage, name: String, foreground: Bool, at millis: Int64, fromStorage: Bool) -> Receipt {
        let handledBy: Receipt.Handler, dataInIntent: Bool
        switch FCMAndroidHandling.of(message, appInForeground: foreground) {
        case .systemTray(let withData): (handledBy, dataInIntent) = (.systemTray, withData)
        case .onMessageReceived: (handledBy, dataInIntent) = (.onMessageReceived, false)
        }
        return Receipt(name: name, handledBy: handledBy, dataInIntent: dataInIntent,
                       title: message.android?.notification?.title ?? message.notification?.title,
                       body: message.android?.notification?.body ?? message.notification?.body,
                       data: message.android?.data ?? message.data, receivedAtMillis: millis, fromStorage: fromStorage)
    }
}
