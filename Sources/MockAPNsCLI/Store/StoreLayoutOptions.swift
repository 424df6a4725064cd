import ArgumentParser
import Foundation
import MockAPNsPostgres

/// How instances sharing a store coordinate and how its records are partitioned: `--store-events notify|poll`
/// (`MOCKAPNS_STORE_EVENTS`) and `--store-partition-span` (`MOCKAPNS_STORE_PARTITION_SPAN`), for `serve --store` and
/// `store migrate`.
struct StoreLayoutOptions: ParsableArguments {
    @Option(name: .customLong("store-events"), help: ArgumentHelp(
        "How instances sharing the store learn of changes and take turns: notify (LISTEN/NOTIFY and advisory locks, "
            + "the default) or poll (an outbox table and leases; for PostgreSQL-compatible engines without those).",
        valueName: "notify|poll"))
    var storeEvents: String?

    @Option(name: .customLong("store-partition-span"), help: ArgumentHelp(
        "The time each partition of the records covers, when this instance is the one that partitions the table "
            + "(a number and h or d, 1h to 31d; default 1d). A store keeps the span it was made with.",
        valueName: "span"))
    var partitionSpan: String?

    /// The mode given (default ``StoreEvents/notify``); a usage error (exit 2) for any other word.
    func events(environment env: EnvironmentOptions) throws -> StoreEvents {
        guard let text = storeEvents ?? env["STORE_EVENTS"] else { return .notify }
        guard let events = StoreEvents(rawValue: text) else {
            FileHandle.standardError.write(Data("mockapns: --store-events must be notify or poll (got \"\(text)\")\n".utf8))
            throw ExitCode(2)
        }
        return events
    }

    /// The span given in milliseconds, nil for the default; a usage error (exit 2) outside 1 hour to 31 days or not a
    /// whole number of hours.
    func partitionSpanMillis(environment env: EnvironmentOptions) throws -> Int64? {
        guard let text = partitionSpan ?? env["STORE_PARTITION_SPAN"] else { return nil }
        guard let span = RetentionAge(text), span.millis >= 3_600_000, span.millis <= 31 * 86_400_000,
              span.millis % 3_600_000 == 0 else {
            FileHandle.standardError.write(Data(
                "mockapns: --store-partition-span must be whole hours or days from 1h to 31d, such as 1d or 6h (got \"\(text)\")\n".utf8))
            throw ExitCode(2)
        }
        return span.millis
    }
}
