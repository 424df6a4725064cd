import APNsModel
import ArgumentParser

/// `mockapns tail`: follow notifications as they arrive (live server-sent events, or lines appended
/// to a recording like `tail -f`).
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow notifications as they arrive.",
        discussion: "Prints the existing ones first with --file (or with --since on a live server), then new ones until interrupted. Exit status: 0 ok, 2 usage error or source unreachable."
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("no-existing"), help: "With --file, skip the records already in the file.")
    var skipExisting = false

    /// Fixed column widths, since rows are printed one at a time.
    static let widths = [5, 12, 18, 10, 22, 13, 40]

    func run() async throws {
        try await InspectRun.run {
            let recordSource = try source.resolve()
            let includeExisting: Bool
            switch recordSource {
            case .file: includeExisting = !skipExisting
            case .live, .store: includeExisting = filters.since != nil
            }
            let stream = try recordSource.follow(matching: filters.filter, includeExisting: includeExisting)
            let style = output.style
            var printedHeader = false
            do {
                for try await record in stream {
                    if output.json {
                        output.printJSON(record.jsonValue())
                    } else {
                        var table = TablePrinter(headers: RecordText.columns, minimumWidths: Self.widths)
                        table.append(RecordText.row(record, style: style))
                        let lines = table.render(style: style).split(separator: "\n")
                        if !printedHeader { StandardStreams.write(style.dim(String(lines[0])) + "\n") }
                        StandardStreams.write(lines[1] + "\n")
                        printedHeader = true
                    }
                }
            } catch let error as InspectError {
                throw error
            } catch {
                throw InspectError.unreachable(url: recordSource.label, reason: "\(error)")
            }
            return true
        }
    }
}
