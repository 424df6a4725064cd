import APNsModel
import ArgumentParser
import MockAPNs

/// `mockapns tail`: follow notifications as they arrive (live server-sent events, or lines appended
/// to a recording like `tail -f`).
struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Follow notifications as they arrive.",
        discussion: """
            Prints the existing ones first with --file (or with --since on a live server), then new ones until \
            interrupted. When the terminal falls behind a live server that no longer holds the records it missed \
            (no --record file), one line on stderr names each skipped range, and a summary counts them at the end. \
            Exit status: 0 ok, 2 usage error or source unreachable.
            """
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
            let report = TailGapReport()
            let interrupt = TailInterrupt.install(report)
            defer { interrupt.cancel() }
            let style = output.style
            var printedHeader = false
            func printRow(_ record: RecordedRequest) {
                var table = TablePrinter(headers: RecordText.columns, minimumWidths: Self.widths)
                table.append(RecordText.row(record, style: style))
                let lines = table.render(style: style).split(separator: "\n")
                if !printedHeader { StandardStreams.write(style.dim(String(lines[0])) + "\n") }
                StandardStreams.write(lines[1] + "\n")
                printedHeader = true
                report.printed()
            }
            do {
                switch recordSource {
                case .live(let client):
                    // The server sends each record as its JSON line: --json prints it as sent, no decoding.
                    for try await event in client.events(matching: filters.filter, includeExisting: includeExisting) {
                        switch event {
                        case .record(let data) where output.json:
                            StandardStreams.write(data + "\n")
                            report.printed()
                        case .record(let data):
                            printRow(try ControlClient.record(from: data, url: client.baseURL))
                        case .gap(let range):
                            report.skipped(range)
                        }
                    }
                case .file, .store:   // appended lines, or the store polled by id
                    let records: AsyncThrowingStream<RecordedRequest, any Error>
                    if case .store(let store) = recordSource {
                        records = store.follow(matching: filters.filter, includeExisting: includeExisting) { report.pruned($0) }
                    } else {
                        records = try recordSource.follow(matching: filters.filter, includeExisting: includeExisting)
                    }
                    for try await record in records {
                        if output.json {
                            output.printJSON(record.jsonValue())
                            report.printed()
                        } else {
                            printRow(record)
                        }
                    }
                }
            } catch let error as InspectError {
                throw error
            } catch {
                throw InspectError.unreachable(url: recordSource.label, reason: "\(error)")
            }
            if report.hadGaps { StandardStreams.writeError(report.summary + "\n") }
            return true
        }
    }
}
