/// A ``RecordSource`` over this mock's ``Recorder``: its memory ring, then its record file for what the ring no longer
/// holds. A read of the file runs on a task of its own, never on the caller's (an event loop's) thread.
public struct RecorderRecords: RecordSource {
    /// The recorder read.
    public let recorder: Recorder

    /// Reads `recorder`.
    public init(_ recorder: Recorder) {
        self.recorder = recorder
    }

    public func records(matching filter: RecordFilter) async throws -> [RecordedRequest] {
        recorder.records(matching: filter)
    }

    public func record(_ id: String) async throws -> RecordedRequest? {
        if let seq = UInt64(id) {
            let recorder = self.recorder
            let found = try await Task.detached { () throws(RecorderError) -> RecordedRequest? in
                try recorder.findRecord(seq: seq)
            }.value
            if let found { return found }
        }
        return recorder.record(apnsID: id) ?? recorder.record(apnsID: id.lowercased())
    }

    public var label: String { recorder.filePath ?? "this mock's memory" }
}
