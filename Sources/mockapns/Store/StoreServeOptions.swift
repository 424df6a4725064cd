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

    /// The store these options name, connected and migrated; nil without `--store`. Prints one line on stderr and
    /// exits 2 for a malformed URL, 1 when the database cannot be reached, refuses the login or is newer.
    func open(environment env: EnvironmentOptions) async throws -> PostgresRecordStore? {
        guard let text = store ?? env["STORE"] else {
            if instanceName != nil || storeNamespace != nil {
                FileHandle.standardError.write(Data("mockapns: --instance-name and --store-namespace go with --store URL\n".utf8))
                throw ExitCode(2)
            }
            return nil
        }
        let url: PostgresStoreURL
        do {
            url = try PostgresStoreURL(parsing: text)
        } catch {
            FileHandle.standardError.write(Data("mockapns: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let opened = PostgresRecordStore(url: url, instance: instanceName ?? env["INSTANCE_NAME"] ?? "starting",
                                         namespace: storeNamespace ?? env["STORE_NAMESPACE"] ?? "", logger: StoreLogger.make())
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
