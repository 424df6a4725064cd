import APNsModel
import DeviceSimulation
import Foundation
import Logging
import MockAPNs
import PostgresNIO

/// Device states and fault rules shared by the mocks of one namespace (`serve --store`), in PostgreSQL.
///
/// A change (through any instance's control API) is one statement and a row in the outbox (`mockapns_store_events`)
/// in one transaction, plus `NOTIFY mockapns_shared_state` with the namespace under ``StoreEvents/notify``. Every
/// instance learns of it — by `LISTEN` on a connection of its own, or by polling the outbox's newest id every
/// ``StoreEvents/pollInterval`` under ``StoreEvents/poll`` — and reloads its local copy (the ``DeviceRegistry`` and
/// ``FaultPlan`` pushes read), and reloads every `resync` as well, in case a change was missed (the connection broke,
/// or someone changed the tables by hand). Pushes never wait on the database for these.
///
/// Fault rules get store-wide ids (`s<n>`), the same on every instance. What each instance keeps of its own: how
/// often a rule fired there, so a counted rule (`"count": 3`) fires up to 3 times on each instance, not 3 times in
/// all (claiming each firing in the database would make those pushes wait for it; not done).
public final class PostgresSharedState: SharedStateStore {
    private let url: PostgresStoreURL
    private let namespace: String
    private let session: PostgresSession
    private let logger: Logger
    /// How this instance learns of changes and takes turns.
    public let events: StoreEvents

    /// The state of `namespace` in the database at `url`; nothing is opened until first use.
    public init(url: PostgresStoreURL, namespace: String, events: StoreEvents = .notify, logger: Logger = Logger(label: "mockapns.store")) {
        self.url = url
        self.namespace = namespace
        self.events = events
        self.logger = logger
        session = PostgresSession(url: url, logger: logger, applicationName: "mockapns shared state")
    }

    public var label: String { url.redacted }

    /// What the namespace holds now.
    public struct Snapshot: Sendable {
        /// Device states by token.
        public var devices: [String: DeviceState]
        /// Fault rules with their ids, oldest first.
        public var faults: [(id: String, rule: FaultRule)]
        /// How often each rule has fired across the instances, by id (claimed counted rules).
        public var fired: [String: Int] = [:]
        /// The virtual devices' changes by token, oldest first.
        public var deviceChanges: [String: [DeviceEvent]] = [:]
    }

    /// Reads every device state and fault rule of the namespace. Rows that no longer read (written by hand) are
    /// skipped and logged.
    public func load() async throws -> Snapshot {
        let namespace = self.namespace, logger = self.logger
        return try await session.run { connection in
            var devices: [String: DeviceState] = [:]
            for try await (token, text) in try await connection.query(
                "SELECT token, state FROM mockapns_devices WHERE namespace = \(namespace)", logger: logger).decode((String, String).self) {
                guard let json = try? JSONValue.parse(Array(text.utf8)), let state = try? DeviceState(json: json) else {
                    logger.warning("skipping an unreadable shared device state", metadata: ["token": "\(token)"])
                    continue
                }
                devices[token] = state
            }
            var faults: [(id: String, rule: FaultRule)] = []
            var fired: [String: Int] = [:]
            for try await (id, text, count) in try await connection.query(
                "SELECT id, rule, fired FROM mockapns_faults WHERE namespace = \(namespace) ORDER BY id", logger: logger).decode((Int64, String, Int32).self) {
                guard let json = try? JSONValue.parse(Array(text.utf8)), let rule = try? FaultRule(json: json) else {
                    logger.warning("skipping an unreadable shared fault rule", metadata: ["id": "\(id)"])
                    continue
                }
                faults.append(("s\(id)", rule))
                if count > 0 { fired["s\(id)"] = Int(count) }
            }
            var changes: [String: [DeviceEvent]] = [:]
            for try await (token, text) in try await connection.query(
                "SELECT token, change FROM mockapns_device_changes WHERE namespace = \(namespace) ORDER BY id", logger: logger)
                .decode((String, String).self) {
                guard let json = try? JSONValue.parse(Array(text.utf8)), let event = try? DeviceEvent(changeJSON: json) else {
                    logger.warning("skipping an unreadable shared device change", metadata: ["token": "\(token)"])
                    continue
                }
                changes[token, default: []].append(event)
            }
            return Snapshot(devices: devices, faults: faults, fired: fired, deviceChanges: changes)
        }
    }

    /// Writes `devices`, `faults` and `deviceChanges` (from `--devices`/`--faults` files) unless the namespace already
    /// holds some of that kind: the first instance seeds the shared state, later ones (and restarts) take what is there.
    public func seed(devices: [String: DeviceState], faults: [FaultRule],
                     deviceChanges: [String: [DeviceEvent]] = [:]) async throws {
        let namespace = self.namespace, logger = self.logger
        let deviceRows = devices.map { ($0.key.lowercased(), $0.value.jsonValue().jsonText()) }
        let changeRows = deviceChanges.flatMap { token, events in
            events.compactMap { event -> (String, String)? in
                guard case .change(let change) = event.kind else { return nil }
                return (token.lowercased(), JSONValue.object([.init("at", .integer(event.time))] + change.jsonMembers).jsonText())
            }
        }
        let faultRows = faults.map { $0.jsonValue().jsonText() }
        let events = self.events
        try await session.run { connection in
            try await connection.transaction(logger: logger) {
                // Seeders take turns: an advisory lock, or the row lock of an upsert (any engine has those).
                switch events {
                case .notify:
                    _ = try await connection.query("SELECT pg_advisory_xact_lock(\(StoreSchema.migrationLockKey))", logger: logger).collect()
                case .poll:
                    _ = try await connection.query("""
                        INSERT INTO mockapns_leases (name, holder, expires_at) VALUES ('seed', 'seeding', now())
                        ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at
                        """, logger: logger).collect()
                }
                let noDevices = try await connection.query(
                    "SELECT NOT EXISTS (SELECT 1 FROM mockapns_devices WHERE namespace = \(namespace))", logger: logger)
                    .collect().first?.decode(Bool.self) ?? false
                if noDevices {
                    for (token, state) in deviceRows {
                        _ = try await connection.query("INSERT INTO mockapns_devices (namespace, token, state) VALUES (\(namespace), \(token), \(state))",
                                                       logger: logger).collect()
                    }
                }
                let noFaults = try await connection.query(
                    "SELECT NOT EXISTS (SELECT 1 FROM mockapns_faults WHERE namespace = \(namespace))", logger: logger)
                    .collect().first?.decode(Bool.self) ?? false
                if noFaults {
                    for rule in faultRows {
                        _ = try await connection.query("INSERT INTO mockapns_faults (namespace, rule) VALUES (\(namespace), \(rule))",
                                                       logger: logger).collect()
                    }
                }
                let noChanges = try await connection.query(
                    "SELECT NOT EXISTS (SELECT 1 FROM mockapns_device_changes WHERE namespace = \(namespace))", logger: logger)
                    .collect().first?.decode(Bool.self) ?? false
                if noChanges {
                    for (token, change) in changeRows {
                        _ = try await connection.query(
                            "INSERT INTO mockapns_device_changes (namespace, token, change) VALUES (\(namespace), \(token), \(change))",
                            logger: logger).collect()
                    }
                }
                try await Self.announce(namespace, events: events, on: connection, logger: logger)
            }
        }
    }

    /// Tells the other instances the namespace changed, inside the change's transaction: a row in the outbox (older
    /// rows of the namespace beyond the newest 100 go), and a notification under ``StoreEvents/notify``.
    private static func announce(_ namespace: String, events: StoreEvents, on connection: PostgresConnection, logger: Logger) async throws {
        let id = try await connection.query("INSERT INTO mockapns_store_events (namespace) VALUES (\(namespace)) RETURNING id",
                                            logger: logger).collect().first?.decode(Int64.self) ?? 0
        _ = try await connection.query("DELETE FROM mockapns_store_events WHERE namespace = \(namespace) AND id < \(id - 100)",
                                       logger: logger).collect()
        if events == .notify {
            _ = try await connection.query("SELECT pg_notify(\(StoreSchema.sharedStateChannel), \(namespace))", logger: logger).collect()
        }
    }

    /// The namespace's newest outbox id (0 when it has none): what a polling instance compares.
    private func newestEvent() async throws -> Int64 {
        let namespace = self.namespace, logger = self.logger
        return try await session.run { connection in
            try await connection.query("SELECT coalesce(max(id), 0) FROM mockapns_store_events WHERE namespace = \(namespace)",
                                       logger: logger).collect().first?.decode(Int64.self) ?? 0
        }
    }

    public func putDevice(_ token: String, _ state: DeviceState) async throws {
        let namespace = self.namespace, key = token.lowercased(), text = state.jsonValue().jsonText()
        try await changing { connection, logger in
            _ = try await connection.query("""
                INSERT INTO mockapns_devices (namespace, token, state) VALUES (\(namespace), \(key), \(text))
                ON CONFLICT (namespace, token) DO UPDATE SET state = EXCLUDED.state
                """, logger: logger).collect()
        }
    }

    public func removeDevice(_ token: String) async throws -> Bool {
        let namespace = self.namespace, key = token.lowercased()
        return try await changing { connection, logger in
            try await connection.query("DELETE FROM mockapns_devices WHERE namespace = \(namespace) AND token = \(key) RETURNING 1",
                                       logger: logger).collect().count > 0
        }
    }

    public func removeAllDevices() async throws -> Int {
        let namespace = self.namespace
        return try await changing { connection, logger in
            try await connection.query("DELETE FROM mockapns_devices WHERE namespace = \(namespace) RETURNING 1", logger: logger).collect().count
        }
    }

    public func addDeviceChanges(_ token: String, _ events: [DeviceEvent]) async throws {
        let namespace = self.namespace, key = token.lowercased()
        let rows = events.compactMap { event -> String? in
            guard case .change(let change) = event.kind else { return nil }
            return JSONValue.object([.init("at", .integer(event.time))] + change.jsonMembers).jsonText()
        }
        guard !rows.isEmpty else { return }
        try await changing { connection, logger in
            for row in rows {
                _ = try await connection.query(
                    "INSERT INTO mockapns_device_changes (namespace, token, change) VALUES (\(namespace), \(key), \(row))",
                    logger: logger).collect()
            }
        }
    }

    public func removeDeviceChanges(_ token: String?) async throws -> Int {
        let namespace = self.namespace, key = token?.lowercased()
        return try await changing { connection, logger in
            if let key {
                return try await connection.query(
                    "DELETE FROM mockapns_device_changes WHERE namespace = \(namespace) AND token = \(key) RETURNING 1",
                    logger: logger).collect().count
            }
            return try await connection.query("DELETE FROM mockapns_device_changes WHERE namespace = \(namespace) RETURNING 1",
                                              logger: logger).collect().count
        }
    }

    public func addFault(_ rule: FaultRule) async throws -> String {
        let namespace = self.namespace, text = rule.jsonValue().jsonText()
        return try await changing { connection, logger in
            let id = try await connection.query("INSERT INTO mockapns_faults (namespace, rule) VALUES (\(namespace), \(text)) RETURNING id",
                                                logger: logger).collect().first?.decode(Int64.self) ?? 0
            return "s\(id)"
        }
    }

    public func removeFault(id: String) async throws -> Bool {
        guard id.hasPrefix("s"), let number = Int64(id.dropFirst()) else { return false }
        let namespace = self.namespace
        return try await changing { connection, logger in
            try await connection.query("DELETE FROM mockapns_faults WHERE namespace = \(namespace) AND id = \(number) RETURNING 1",
                                       logger: logger).collect().count > 0
        }
    }

    public func removeAllFaults() async throws -> Int {
        let namespace = self.namespace
        return try await changing { connection, logger in
            try await connection.query("DELETE FROM mockapns_faults WHERE namespace = \(namespace) RETURNING 1", logger: logger).collect().count
        }
    }

    public func claimFault(id: String, limit: Int) async throws -> Int? {
        guard id.hasPrefix("s"), let number = Int64(id.dropFirst()) else { return nil }
        let namespace = self.namespace, logger = self.logger, cap = Int32(clamping: limit)
        // One statement: the row lock makes concurrent claims from several instances take turns, each seeing the
        // count the previous one left, so no firing is granted twice.
        return try await session.run { connection in
            try await connection.query(
                "UPDATE mockapns_faults SET fired = fired + 1 WHERE namespace = \(namespace) AND id = \(number) AND fired < \(cap) RETURNING fired",
                logger: logger).collect().first.map { Int(try $0.decode(Int32.self)) }
        }
    }

    /// Runs `change` and tells every instance of the namespace (``announce(_:events:on:logger:)``), in one transaction.
    private func changing<Result: Sendable>(_ change: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result)
        async throws -> Result
    {
        let namespace = self.namespace, logger = self.logger, events = self.events
        return try await session.run { connection in
            try await connection.transaction(logger: logger) {
                let result = try await change(connection, logger)
                try await Self.announce(namespace, events: events, on: connection, logger: logger)
                return result
            }
        }
    }

    /// Keeps `devices`, `faults` and `deviceChanges` equal to the namespace's shared state until cancelled: reloads on
    /// every notification (on a connection of its own, reopened when it breaks) or outbox change (polled), and every
    /// `resync` regardless.
    public func follow(into devices: DeviceRegistry, faults: FaultPlan, deviceChanges: DeviceChangeLog? = nil,
                       resync: Duration = .seconds(5)) -> Task<Void, Never> {
        let wake = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let listener = events == .notify ? listen(waking: wake.continuation) : poll(waking: wake.continuation)
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: resync)
                wake.continuation.yield()
            }
        }
        let logger = self.logger
        return Task {
            await withTaskCancellationHandler {
                for await _ in wake.stream {
                    do {
                        let snapshot = try await load()
                        devices.replaceAll(with: snapshot.devices)
                        faults.replaceRules(snapshot.faults, fired: snapshot.fired)
                        deviceChanges?.replaceChanges(with: snapshot.deviceChanges)
                    } catch {
                        logger.warning("reloading the shared state failed", metadata: ["error": "\(String(reflecting: error))"])
                    }
                }
            } onCancel: {
                listener.cancel()
                ticker.cancel()
                wake.continuation.finish()
            }
        }
    }

    /// ``StoreEvents/poll``: reads the outbox's newest id every ``StoreEvents/pollInterval`` and wakes the reloader when
    /// it moved (and once at the start).
    private func poll(waking wake: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        let logger = self.logger
        return Task {
            var seen: Int64?
            var failing = false
            while !Task.isCancelled {
                do {
                    let newest = try await newestEvent()
                    if newest != seen {
                        seen = newest
                        wake.yield()
                    }
                    failing = false
                } catch {
                    if !failing { logger.warning("polling for shared state changes failed; retrying", metadata: ["error": "\(String(reflecting: error))"]) }
                    failing = true
                }
                try? await Task.sleep(for: StoreEvents.pollInterval)
            }
        }
    }

    /// ``StoreEvents/notify``: `LISTEN`s on a connection of its own (reopened when it breaks) and wakes the reloader on
    /// each notification for the namespace, and on each (re)connection, since one may have been missed meanwhile.
    private func listen(waking wake: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        let namespace = self.namespace, logger = self.logger, url = self.url
        return Task {
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: try PostgresSession.configuration(for: url, applicationName: "mockapns shared state events"), id: 1, logger: logger)
                    defer { Task { try? await connection.close() } }
                    wake.yield()   // (re)connected: a notification may have been missed meanwhile
                    try await connection.listen(on: StoreSchema.sharedStateChannel) { notifications in
                        for try await notification in notifications where notification.payload == namespace {
                            wake.yield()
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("listening for shared state changes failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Closes the connection.
    public func close() async {
        await session.close()
    }
}
