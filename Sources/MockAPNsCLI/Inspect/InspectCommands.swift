import ArgumentParser

/// The inspection subcommands, for `MockAPNsCommand`'s `subcommands:` list.
enum InspectCommands {
    /// `list`, `show`, `tail`, `export`, `stats`, `expect`, `device`, `token`.
    static let all: [any ParsableCommand.Type] = [
        ListCommand.self, ShowCommand.self, TailCommand.self, ExportCommand.self,
        StatsCommand.self, ExpectCommand.self, DeviceCommand.self, TokenCommand.self,
    ]
}
