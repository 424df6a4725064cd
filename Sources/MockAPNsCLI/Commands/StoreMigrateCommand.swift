import ArgumentParser
import Foundation

/// `mockapns store migrate`: brings the store's schema to this build's version (taking turns as `serve --store` does,
/// by advisory lock or by lease with `--store-events poll`, so it is safe beside running instances).
struct StoreMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the store's schema up to this mockapns's version.",
        discussion: "Exit status: 0 migrated (or already current), 1 the database cannot be used or is newer, 2 usage error."
    )

    @OptionGroup var url: StoreURLOption
    @OptionGroup var layout: StoreLayoutOptions

    func run() async throws {
        let env = EnvironmentOptions()
        let store = try url.resolve(events: layout.events(environment: env), partitionSpanMillis: layout.partitionSpanMillis(environment: env))
        do {
            let versions = try await store.open()
            await store.close()
            let what = versions.from == versions.to
                ? "already at schema version \(versions.to)"
                : "migrated from schema version \(versions.from) to \(versions.to)"
            print("\(store.label): \(what)")
        } catch {
            await store.close()
            FileHandle.standardError.write(Data("mockapns: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
