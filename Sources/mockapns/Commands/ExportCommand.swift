import APNsModel
import ArgumentParser
import Foundation

/// `mockapns export`: the matching records as JSON Lines or a HAR 1.2 archive.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export recorded notifications as JSON Lines or HAR 1.2.",
        discussion: "HAR opens in a browser's network panel or any HAR viewer. Exit status: 0 ok, 2 usage error or source unreadable."
    )

    /// The output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl
        case har
    }

    @Option(help: ArgumentHelp("jsonl (one record per line) or har.", valueName: "format"))
    var format: Format = .jsonl

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
    var output: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("Scheme and host for HAR request URLs.", valueName: "url"))
    var baseURL = "https://localhost:2197"

    @OptionGroup var source: SourceOptions
    @OptionGroup var filters: FilterOptions

    func run() async throws {
        try await InspectRun.run {
            let records = try await source.resolve().records(matching: filters.filter)
            let text: String
            switch format {
            case .jsonl:
                text = records.map { $0.jsonValue().jsonText() + "\n" }.joined()
            case .har:
                let document = HARDocument(baseURL: baseURL, creatorVersion: MockAPNsCommand.configuration.version)
                text = document.json(for: records).prettyText() + "\n"
            }
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                    throw InspectError.unwritable(path: output, reason: "check that the folder exists and is writable")
                }
                StandardStreams.writeError("Wrote \(records.count) \(records.count == 1 ? "record" : "records") to \(output).\n")
            } else {
                StandardStreams.write(text)
            }
            return true
        }
    }
}
