import ArgumentParser

/// `mockapns store`: the shared PostgreSQL store's schema, for operators who migrate before they deploy.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Migrate or inspect the shared PostgreSQL store (`serve --store`).",
        subcommands: [StoreMigrateCommand.self, StoreStatusCommand.self]
    )
}
