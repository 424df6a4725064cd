import FCMModel
import Foundation
import JSON
import Logging
import MockAPNs
import MockAPNsRecording
import ServiceLifecycle
import Support

/// The FCM front door over one ``Mock``: Google's token exchange, FCM HTTP v1's `messages:send` and IID's topic
/// management, as Google checks them (FCMModel, fcm-rules), with each iOS message turned into the APNs push FCM
/// sends and run through the mock (``APNsUplink``), so a Firebase sender meets the same rules, faults, devices,
/// recording and relay as an APNs one. Its listeners (``FCMListener``) and the control API's `/api/v1/fcm/…` call it.
///
/// A `Service` so the group closes its pipeline connections after the listeners have stopped.
public final class FCMFrontDoor: Service, Sendable {
    /// What it was made with.
    public let configuration: FCMConfiguration
    /// The projects and the service-account keys trusted for them.
    public let projects: FCMProjects
    /// The registration tokens issued, and their topics.
    public let registrations = FCMRegistrations()
    /// The virtual Android devices behind Android registrations.
    public let androidDevices = AndroidDevices()
    /// The access tokens issued.
    let accessTokens = FCMAccessTokens()
    /// Every FCM request, newest last, when there is no shared store.
    public let records: FCMRecordLog
    /// With a shared store (`serve --fcm --store URL`): where every FCM record goes instead, and is read from.
    public let storedRecords: FCMStoredRecords?
    let storeWriter: FCMRecordWriter?
    /// The mock the iOS messages go through.
    let mock: Mock
    let uplink: APNsUplink
    let logger: Logger
    /// The last `gcm.message_id` given: microseconds since 1970, kept increasing.
    private let lastMessageID = Locked<UInt64>(0)
    /// The path of the default project's service-account file, when there is a data folder.
    public let defaultServiceAccountPath: String?

    /// Loads the kept and given service accounts (making the default project's), and the APNs keys; throws a
    /// sentence saying what to fix.
    /// With `store`, the FCM records go there (``storedRecords``), written from ``run()``'s task.
    public init(mock: Mock, configuration: FCMConfiguration, store: (any FCMRecordStore)? = nil, logger: Logger) throws(FCMSetupError) {
        self.mock = mock
        self.configuration = configuration
        self.logger = logger
        projects = FCMProjects(dataDirectory: configuration.dataDirectory)
        records = FCMRecordLog(limit: configuration.recordLimit)
        storedRecords = store.map(FCMStoredRecords.init)
        storeWriter = store.map { FCMRecordWriter(store: $0) }
        defaultServiceAccountPath = try projects.load(files: configuration.trustedServiceAccountFiles,
                                                      defaultProject: configuration.defaultProject)
        uplink = try APNsUplink(mock: mock, keys: configuration.apnsKeys)
        guard uplink.canSign(for: configuration.defaultProject) else {
            throw .badAPNsKey("the mock trusts no bundled test key to sign iOS messages with: give --fcm-apns-key TEAM:KEY:PATH")
        }
    }

    /// Writes the FCM records to the store, if there is one, until the group's shutdown; then writes what is left
    /// (the listeners stopped before) and closes the pipeline connections.
    public func run() async throws {
        guard let storeWriter else {
            try? await gracefulShutdown()
            uplink.close()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await storeWriter.run() }
            try? await gracefulShutdown()
            storeWriter.stop()
        }
        uplink.close()
    }

    /// FCM records that could not be written to the store before the front door stopped.
    public var lostRecords: Int { storeWriter?.lost ?? 0 }

    // MARK: Records

    /// Keeps `record`: in the store when there is one (waiting while the writer's queue is full), else in memory.
    func keep(_ record: FCMRecord) async {
        if let storeWriter { await storeWriter.enqueue(record) } else { records.append(record) }
    }

    /// The newest `limit` records matching `filter` (with a store: every instance's, the newest
    /// ``FCMStoredRecords/listLimit`` unless `limit` says), oldest first, as the control API serves them.
    /// - Throws: the store's error.
    public func records(matching filter: FCMExpectation.Filter, limit: Int? = nil) async throws -> [JSONValue] {
        guard let storedRecords else {
            let matches = FCMExpectation.matcher(filter)
            return records.records(limit: limit ?? .max) { matches($0.json) }.map(\.json)
        }
        await storeWriter?.flush()
        return try await storedRecords.records(matching: filter, limit: limit)
    }

    /// The newest record whose name, message id or `seq` is one of `ids`.
    /// - Throws: the store's error.
    public func record(_ ids: Set<String>) async throws -> JSONValue? {
        guard let storedRecords else {
            return records.records { record in
                ids.contains { id in record.name?.hasSuffix("/" + id) == true || record.name == id || String(record.sequence) == id }
            }.last?.json
        }
        await storeWriter?.flush()
        return try await storedRecords.record(ids)
    }

    /// Forgets the records (with a store: the namespace's, every instance's); returns how many there were.
    /// - Throws: the store's error.
    public func clearRecords() async throws -> Int {
        guard let storedRecords else { return records.removeAll() }
        await storeWriter?.flush()
        return try await storedRecords.store.clearFCM()
    }

    /// Seconds since 1970 on the mock's clock (which a test may move).
    var nowSeconds: Int64 { mock.clock.nowMillis() / 1000 }
    /// Milliseconds since 1970 on the mock's clock.
    public var nowMillis: Int64 { mock.clock.nowMillis() }

    /// A new `gcm.message_id`: the time in microseconds, one more than the last when two fall in one microsecond.
    func nextMessageID() -> UInt64 {
        let micros = UInt64(clamping: mock.clock.nowMillis()) &* 1000
        return lastMessageID.withLock { last in
            last = max(micros, last &+ 1)
            return last
        }
    }

    // MARK: The control API's operations

    /// Registers an app instance of `project` (which must have a trusted key) and returns it.
    public func register(project: String, platform: FCMPlatform, bundleID: String, apnsToken: String?) throws(FCMSetupError) -> FCMRegistration {
        guard let known = projects.project(named: project) else {
            throw .badRegistration("the mock serves no project \"\(project)\": make its service account first (POST /api/v1/fcm/projects/\(project)/service-account, or `mockapns fcm service-account --project \(project)`); it serves \(projects.projectIDs.joined(separator: ", "))")
        }
        guard !bundleID.isEmpty, bundleID.utf8.count <= 255 else {
            throw .badRegistration("\"bundle_id\" must be the app's bundle id (iOS) or package name, e.g. com.example.app")
        }
        return try registrations.register(project: known, platform: platform, bundleID: bundleID, apnsToken: apnsToken)
    }
}
