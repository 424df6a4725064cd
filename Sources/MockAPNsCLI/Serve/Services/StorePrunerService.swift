import MockAPNs
import MockAPNsPostgres
import ServiceLifecycle

/// `--retain-count` / `--retain-age` as a service: ``StorePruner``'s rounds until the group shuts down.
struct StorePrunerService: Service, CustomStringConvertible {
    let store: PostgresRecordStore
    let recorder: Recorder
    let keepNewest: Int?
    let maxAgeMillis: Int64?
    let interval: Duration
    var description: String { "store pruner" }

    func run() async throws {
        let task = StorePruner.start(store: store, recorder: recorder, keepNewest: keepNewest, maxAgeMillis: maxAgeMillis,
                                     interval: interval)
        try? await gracefulShutdown()
        task.cancel()
        await task.value
    }
}
