import APNsModel
import MockAPNsRecording

/// Writes records in an export format one at a time, so `mockapns export` writes as it reads: JSON Lines line by
/// line, HAR entry by entry inside the archive (byte for byte the archive `HARDocument.json(for:)` pretty-prints).
struct RecordExportWriter {
    /// The format being written.
    let format: ExportCommand.Format
    private var har: JSONArrayWriter
    private let document: HARDocument
    /// Records written so far.
    private(set) var count = 0

    /// A writer of `format`; `document` shapes HAR archives.
    init(format: ExportCommand.Format, document: HARDocument) {
        self.format = format
        self.document = document
        har = JSONArrayWriter(JSONArrayStream(pretty: true, document: document.document(entries:)))
    }

    /// Writes one record.
    mutating func add(_ record: RecordedRequest, to output: inout BufferedOutput) throws(InspectError) {
        switch format {
        case .jsonl: try output.write(record.jsonValue().jsonText() + "\n")
        case .har: try har.add(document.entry(record), to: &output)
        }
        count += 1
    }

    /// Ends the output (closes the HAR archive).
    func finish(to output: inout BufferedOutput) throws(InspectError) {
        guard format == .har else { return }
        try har.finish(to: &output)
        try output.write("\n")
    }
}
