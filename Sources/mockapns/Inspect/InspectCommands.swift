import ArgumentParser
import Foundation

/// The inspection subcommands, for `MockAPNsCommand`'s `subcommands:` list.
enum InspectCommands {
    /// `list`, `show`, `tail`, `export`, `stats`, `expect`, `token`.
    static let all: [any ParsableCommand.Type] = [
        ListCommand.self, ShowCommand.self, TailCommand.self, ExportCommand.self,
        StatsCommand.self, ExpectCommand.self, TokenCommand.self,
    ]
}

/// A `main` for the root command that keeps the documented exit statuses for argument errors too:
/// argument-parser's own usage failures (unknown flag, bad value) exit 2 instead of 64.
///
/// In `MockAPNsCommand`: `static func main() async { await CommandLineRunner.main(Self.self) }`.
enum CommandLineRunner {
    /// Parses the process arguments as `Root`, runs the chosen command and exits.
    static func main<Root: AsyncParsableCommand>(_ root: Root.Type) async -> Never {
        do {
            var command = try Root.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Root.exit()
        } catch {
            let code = Root.exitCode(for: error)
            if code == .validationFailure {
                StandardStreams.writeError(Root.fullMessage(for: error) + "\n")
                Root.exit(withError: ExitCode(2))
            }
            Root.exit(withError: error)
        }
    }
}
