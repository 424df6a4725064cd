import APNsModel
import ArgumentParser

/// `mockapns list`: the recorded notifications that match the filters, as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recorded notifications (from a running mock or a recording file).",
        discussion: "Exit status: 0 ok, 2 usage error or source unreadable."
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            let records = try await source.resolve().records(matching: filters.filter)
            if output.json {
                output.printJSON(.object([.init("notifications", .array(records.map { $0.jsonValue() }))]))
                return true
            }
            let style = output.style
            var table = TablePrinter(headers: RecordText.columns)
            for record in records { table.append(RecordText.row(record, style: style)) }
            StandardStreams.write(records.isEmpty ? "No notifications recorded (filter: \(filters.filter.readable)).\n" : table.render(style: style))
            return true
        }
    }
}
