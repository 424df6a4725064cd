import ArgumentParser
import Foundation

/// `mockapns store status`: the store's schema version against this build's, and how many records each instance of
/// each namespace wrote.
struct StoreStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the store's schema version and its records per namespace and instance.",
        discussion: "Exit status: 0 the schema is current, 1 it needs a migration, is newer, or the database cannot be used; 2 usage error."
    )

    @OptionGroup var url: StoreURLOption

    func run() async throws {
        let store = try url.resolve()
        defer { Task { await store.close() } }
        do {
            let (found, supported) = try await store.schemaVersion()
            print("store: \(store.label)")
            print("schema version: \(found) (this mockapns: \(supported))")
            if found < supported {
                print("needs migrating: run `mockapns store migrate --store URL` (or start `mockapns serve --store URL`)")
                throw ExitCode(1)
            }
            if found > supported {
                print("written by a newer mockapns: this one refuses it")
                throw ExitCode(1)
            }
            let counts = try await store.instanceCounts()
            var table = TablePrinter(headers: ["NAMESPACE", "INSTANCE", "RECORDS"])
            for row in counts { table.append([row.namespace.isEmpty ? "-" : row.namespace, row.instance, String(row.records)]) }
            print(counts.isEmpty ? "no records" : table.render(style: TerminalStyle(enabled: false)), terminator: counts.isEmpty ? "\n" : "")
        } catch let error as ExitCode {
            throw error
        } catch {
            FileHandle.standardError.write(Data("mockapns: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
