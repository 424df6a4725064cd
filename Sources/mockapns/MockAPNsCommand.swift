import ArgumentParser

/// The `mockapns` command: a local stand-in for Apple Push Notification service and its tools.
@main
struct MockAPNsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mockapns",
        abstract: "A local mock of Apple Push Notification service, and tools to inspect what it received.",
        version: "0.1.0",
        subcommands: [
            ServeCommand.self,
        ]
    )
}
