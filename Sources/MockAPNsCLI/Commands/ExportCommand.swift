import APNsModel
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockAPNs

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
            let recordSource = try source.resolve()
            let filter = filters.filter
            // A live server's records (or a limited file's newest few) arrive as one list; a whole file streams.
            var listed: [RecordedRequest]?
            if case .file(let file) = recordSource, filter.limit == nil {
                try file.forEachRecord { _ in false }   // an unreadable recording is reported before the output is made
            } else {
                listed = try await recordSource.records(matching: filter)
            }
            let destination = try output.map { path throws(InspectError) in try AtomicOutputFile(path: path) }
            var out = BufferedOutput(descriptor: destination?.descriptor ?? STDOUT_FILENO, label: output ?? "standard output")
            var writer = RecordExportWriter(format: format, document: HARDocument(baseURL: baseURL, creatorVersion: MockAPNsCommand.configuration.version))
            do {
                if let listed {
                    for record in listed { try writer.add(record, to: &out) }
                } else if case .file(let file) = recordSource {
                    try file.forEachRecord { record in
                        if filter.matches(record) { try writer.add(record, to: &out) }
                        return true
                    }
                }
                try writer.finish(to: &out)
                try out.flush()
                try destination?.commit()
            } catch {
                destination?.discard()
                throw error
            }
            if let output {
                StandardStreams.writeError("Wrote \(writer.count) \(writer.count == 1 ? "record" : "records") to \(output).\n")
            }
            return true
        }
    }
}
