@testable import MockAPNsPostgres
import PostgresSupport
import XCTest

/// Stores for the store's tests: migrated, each in a database of its own on the class's cluster, or in a shared one.
enum MigratedStore {
    /// Databases made so far, for unique names across the suite.
    nonisolated(unsafe) private static var made = 0

    /// A migrated store on `cluster` for `instance` in `namespace`, in a new database named `prefix` and a number (or
    /// in `database`, shared); returns it and its database's name.
    static func open(on cluster: PostgresCluster?, prefix: String, instance: String = "a:1", namespace: String = "",
                     database: String? = nil, events: StoreEvents = .notify, synchronousCommit: Bool = true) async throws
        -> (PostgresRecordStore, String) {
        let cluster = try XCTUnwrap(cluster)
        let name: String
        if let database {
            name = database
        } else {
            made += 1
            name = try cluster.createDatabase("\(prefix)\(made)")
        }
        let store = PostgresRecordStore(url: try PostgresStoreURL(parsing: cluster.url(database: name)), instance: instance,
                                        namespace: namespace, events: events, synchronousCommit: synchronousCommit)
        try await store.open()
        return (store, name)
    }
}
