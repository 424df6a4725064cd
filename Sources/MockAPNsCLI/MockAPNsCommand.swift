import ArgumentParser
import Foundation
import MockAPNs
import Support

/// The `mockapns` command: a local stand-in for Apple Push Notification service and its tools.
///
/// Exit status across every subcommand: 0 ok, 1 a check failed (lint error, unmet `expect`, server
/// could not start), 2 a usage error (bad flags or values, unreadable input).
///
/// The one public entry of the module: the `mockapns` executable calls `main()`; everything else stays internal
/// (tests reach it with `@testable import MockAPNsCLI`).
public struct MockAPNsCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "mockapns",
        abstract: "A local mock of Apple Push Notification service, and tools to inspect what it received.",
        version: MockAPNsVersion.current,
        subcommands: [
            ServeCommand.self,
            LintCommand.self,
            SimulateCommand.self,
            SendCommand.self,
            CertsCommand.self,
            WaitCommand.self,
            HealthCommand.self,
            StoreCommand.self,
        ] + InspectCommands.all + [FCMCommand.self]
    )

    public init() {}

    /// Runs the chosen subcommand, mapping argument-parser's usage errors (EX_USAGE, 64) to exit status 2.
    public static func main() async {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if CommandLine.arguments.count > 1, let message = SubcommandSuggestion.message(for: CommandLine.arguments[1], names: names) {
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
