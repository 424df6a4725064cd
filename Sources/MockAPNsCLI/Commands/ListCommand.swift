#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import APNsModel
import ArgumentParser
import MockAPNs

/// `mockapns list`: the recorded notifications that match the filters, as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recorded notifications (from a running mock or a recording file).",
        discussion: "Exit status: 0 ok, 2 usage error or source unreadable."
    )

    @OptionGroup var source: SourceOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var fcm: FCMOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            let recordSource = try source.resolve()
            if fcm.fcm {
                try await listFCM(FCMInspection(recordSource))
                return true
            }
            try fcm.refuseWithoutFCM()
            if case .file(let file) = recordSource, filters.limit == nil {
                // Every match of a recording of any size: streamed, never held.
                if output.json { try Self.streamJSON(file, filter: filters.filter) } else { try streamTable(file) }
                return true
            }
            let records = try await recordSource.records(matching: filters.filter)
            if output.json {
                output.printJSON(Self.document(.array(records.map { $0.jsonValue() })))
                return true
            }
            let style = output.style
            var table = TablePrinter(headers: RecordText.columns)
            for record in records { table.append(RecordText.row(record, style: style)) }
            StandardStreams.write(records.isEmpty ? emptyMessage : table.render(style: style))
            return true
        }
    }

    /// `list --fcm`: the FCM records, as a table or `{"messages": [...]}`.
    private func listFCM(_ inspection: FCMInspection) async throws(InspectError) {
        let (filter, limit) = try FCMInspection.filter(filters, project: fcm.project, name: fcm.name)
        let records = try await inspection.messages(filter, limit: limit)
        if output.json {
            output.printJSON(.object([.init("messages", .array(records))]))
            return
        }
        let style = output.style
        var table = TablePrinter(headers: FCMInspection.columns)
        for record in records { table.append(FCMInspection.row(record, style: style)) }
        StandardStreams.write(records.isEmpty ? "No FCM messages recorded.\n" : table.render(style: style))
    }

    /// `{"notifications": [...]}`.
    static func document(_ notifications: JSONValue) -> JSONValue {
        .object([.init("notifications", notifications)])
    }

    private var emptyMessage: String { "No notifications recorded (filter: \(filters.filter.readable)).\n" }

    /// `--json` over a whole recording: one record at a time into the document.
    static func streamJSON(_ file: RecordFile, filter: RecordFilter) throws(InspectError) {
        var out = BufferedOutput(descriptor: STDOUT_FILENO, label: "standard output")
        var writer = JSONArrayWriter(JSONArrayStream(pretty: false, document: document))
        try file.forEachRecord { record in
            if filter.matches(record) { try writer.add(record.jsonValue(), to: &out) }
            return true
        }
        try writer.finish(to: &out)
        try out.write("\n")
        try out.flush()
    }

    /// The table over a whole recording in two passes: the first measures the columns, the second prints the rows
    /// (reading only the lines the first pass read, should the file grow meanwhile).
    private func streamTable(_ file: RecordFile) throws(InspectError) {
        let filter = filters.filter
        let style = output.style
        var layout = TableLayout(headers: RecordText.columns)
        var matched = 0
        let end = try file.forEachRecord { record in
            if filter.matches(record) {
                layout.measure(RecordText.row(record, style: style))
                matched += 1
            }
            return true
        }
        guard matched > 0 else {
            StandardStreams.write(emptyMessage)
            return
        }
        var out = BufferedOutput(descriptor: STDOUT_FILENO, label: "standard output")
        try out.write(style.bold(layout.line(RecordText.columns)) + "\n")
        try file.forEachRecord(upTo: end) { record in
            if filter.matches(record) { try out.write(layout.line(RecordText.row(record, style: style)) + "\n") }
            return true
        }
        try out.flush()
    }
}
