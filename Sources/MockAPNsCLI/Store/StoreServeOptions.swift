import ArgumentParser
import Foundation
import MockAPNs
import MockAPNsPostgres

/// `serve`'s shared-store options: `--store postgres://…` (also `MOCKAPNS_STORE`), `--instance-name`,
/// `--store-namespace`. Without `--store` nothing changes: the memory ring and the optional `--record` file are the
/// whole recording.
struct StoreServeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Also write every record to this shared PostgreSQL store (password from the URL, PGPASSWORD or ~/.pgpass; never printed). Several mocks may share one.",
        valueName: "postgres://user@host:port/db?sslmode=…"))
    var store: String?

    @Option(name: .customLong("instance-name"), help: ArgumentHelp(
        "This mock's name in the store's records (default host-name:port).", valueName: "name"))
    var instanceName: String?

    @Option(name: .customLong("store-namespace"), help: ArgumentHelp(
        "Keep this mock's records apart from other namespaces in the same database (default none).", valueName: "name"))
    var storeNamespace: String?

    @OptionGroup var layout: StoreLayoutOptions

    @Option(name: .customLong("store-resync"), help: ArgumentHelp(
        "With --store, seconds between full re-reads of the shared device states and fault rules, besides the ones "
            + "each change triggers (default 5).", valueName: "seconds"))
    var storeResync: Int?

    @Option(name: .customLong("store-write-timeout"), help: ArgumentHelp(
        "With --store, seconds a batch's write may take before the mock gives up on the connection, answers 500 "
            + "InternalServerError while it cannot write, and retries on a new one (default 5).", valueName: "seconds"))
    var storeWriteTimeout: Int?

    /// The store writer's watchdog; a usage error below 1 second.
    func writeTimeout(environment env: EnvironmentOptions) throws -> Duration {
        let seconds = try storeWriteTimeout ?? env.int("STORE_WRITE_TIMEOUT") ?? 5
        guard seconds >= 1 else { throw ValidationError("--store-write-timeout must be at least 1 second (got \(seconds))") }
        return .seconds(seconds)
    }

    /// How often the shared state is read again regardless of changes; a usage error below 1 second.
    func resync(environment env: EnvironmentOptions) throws -> Duration {
        let seconds = try storeResync ?? env.int("STORE_RESYNC") ?? 5
        guard seconds >= 1 else { throw ValidationError("--store-resync must be at least 1 second (got \(seconds))") }
        return .seconds(seconds)
    }

    @Option(name: .customLong("retain-count"), help: ArgumentHelp(
        "With --store, keep at most this many records in this namespace, pruning the oldest in the background.", valueName: "n"))
    var retainCount: Int?

    @Option(name: .customLong("retain-age"), help: ArgumentHelp(
        "With --store, prune records older than this in the background: a number and s, m, h or d (14d).", valueName: "age"))
    var retainAge: String?

    @Option(name: .customLong("retain-interval"), help: ArgumentHelp(
        "Seconds between pruning rounds for --retain-count/--retain-age (default 10).", valueName: "seconds"))
    var retainInterval: Int?

    /// Background pruning when `--retain-count` or `--retain-age` is given (checked by `open`), as a service.
    func pruner(_ store: PostgresRecordStore?, recorder: Recorder, environment env: EnvironmentOptions) throws
        -> StorePrunerService?
    {
        guard let store else { return nil }
        let count = try retainCount ?? env.int("RETAIN_COUNT")
        let age = (retainAge ?? env["RETAIN_AGE"]).flatMap(RetentionAge.init)
        guard count != nil || age != nil else { return nil }
        let interval = try retainInterval ?? env.int("RETAIN_INTERVAL") ?? 10
        return StorePrunerService(store: store, recorder: recorder, keepNewest: count, maxAgeMillis: age?.millis,
                                  interval: .seconds(interval))
    }

    /// Checks the retention options (one line and exit 2 when they make no sense).
    private func checkRetention(environment env: EnvironmentOptions, hasStore: Bool) throws {
        func refuse(_ message: String) throws -> Never {
            FileHandle.standardError.write(Data("mockapns: \(message)\n".utf8))
            throw ExitCode(2)
        }
        let count = try retainCount ?? env.int("RETAIN_COUNT")
        let ageText = retainAge ?? env["RETAIN_AGE"]
        let interval = try retainInterval ?? env.int("RETAIN_INTERVAL")
        if !hasStore, count != nil || ageText != nil {
            try refuse("--retain-count and --retain-age prune the shared store: they go with --store URL")
        }
        if let count, count < 0 { try refuse("--retain-count must be 0 or more records (got \(count))") }
        if let ageText, RetentionAge(ageText) == nil {
            try refuse("--retain-age must be a whole number and a unit s, m, h or d, such as 14d (got \"\(ageText)\")")
        }
        if let interval, interval < 1 { try refuse("--retain-interval must be at least 1 second (got \(interval))") }
    }

    /// The store these options name, connected and migrated; nil without `--store`. Prints one line on stderr and
    /// exits 2 for a malformed URL, 1 when the database cannot be reached, refuses the login or is newer.
    ///
    /// `synchronousCommit`: whether each batch's commit waits for the disk (`--record-sync`).
    func open(environment env: EnvironmentOptions, synchronousCommit: Bool) async throws -> PostgresRecordStore? {
        try checkRetention(environment: env, hasStore: store != nil || env["STORE"] != nil)
        guard let text = store ?? env["STORE"] else {
            if instanceName != nil || storeNamespace != nil || layout.storeEvents != nil || layout.partitionSpan != nil
                || storeWriteTimeout != nil {
                FileHandle.standardError.write(Data(
                    "mockapns: --instance-name, --store-namespace, --store-events, --store-partition-span and "
                        .appending("--store-write-timeout go with --store URL\n").utf8))
                throw ExitCode(2)
            }
            return nil
        }
        let events = try layout.events(environment: env)
        let span = try layout.partitionSpanMillis(environment: env)
        let writeTimeout = try writeTimeout(environment: env)
        let url: PostgresStoreURL
        do {
            url = try PostgresStoreURL(parsing: text)
        } catch {
            FileHandle.standardError.write(Data("mockapns: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let opened = PostgresRecordStore(url: url, instance: instanceName ?? env["INSTANCE_NAME"] ?? "starting",
                                         namespace: storeNamespace ?? env["STORE_NAMESPACE"] ?? "", events: events,
                                         synchronousCommit: synchronousCommit, partitionSpanMillis: span,
                                         writeTimeout: writeTimeout, logger: StoreLogger.make())
        do {
            let versions = try await opened.open()
            let migrated = versions.from == versions.to ? "" : " (migrated from version \(versions.from))"
            FileHandle.standardError.write(Data(
                "mockapns: recording to the store \(opened.label), schema version \(versions.to)\(migrated)\n".utf8))
        } catch {
            await opened.close()
            FileHandle.standardError.write(Data("mockapns: cannot use the store: \(error)\n".utf8))
            throw ExitCode(1)
        }
        return opened
    }

    /// Whether the instance name is left to the default (host name and the bound port, known after start).
    func namesInstanceByAddress(_ env: EnvironmentOptions) -> Bool { instanceName == nil && env["INSTANCE_NAME"] == nil }
}
