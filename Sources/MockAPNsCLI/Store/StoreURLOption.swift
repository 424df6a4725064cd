import ArgumentParser
import Foundation
import MockAPNsPostgres

/// `--store URL` (or `MOCKAPNS_STORE`) for the `store` subcommands: the store, or exit 2 with one line when the URL
/// is missing or malformed.
struct StoreURLOption: ParsableArguments {
    @Option(help: ArgumentHelp("The store (default $MOCKAPNS_STORE).", valueName: "postgres://user@host:port/db?sslmode=…"))
    var store: String?

    /// The store the option names (not yet connected).
    func resolve(events: StoreEvents = .notify, partitionSpanMillis: Int64? = nil) throws -> PostgresRecordStore {
        guard let text = store ?? EnvironmentOptions()["STORE"] else {
            FileHandle.standardError.write(Data("mockapns: give the store with --store postgres://user@host:port/db (or MOCKAPNS_STORE)\n".utf8))
            throw ExitCode(2)
        }
        do {
            return PostgresRecordStore(url: try PostgresStoreURL(parsing: text), instance: "operator", events: events,
                                       partitionSpanMillis: partitionSpanMillis, logger: StoreLogger.make())
        } catch {
            FileHandle.standardError.write(Data("mockapns: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
