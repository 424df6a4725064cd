import APNsModel
import Hummingbird
import MockAPNsRecording

/// `/api/v1/stream` with `serve --store`: every instance's records as the shared store receives them
/// (``RecordStore/follow(matching:after:)``), `id:` the store-wide id, so the dashboard of any instance lists the
/// pushes all of them answered; `event: gap` with `"pruned": true` names ids retention deleted before the feed read
/// them. A store that fails ends the feed with an `event: error` naming it; the feed ends when the server stops
/// (within one poll).
enum StoreLiveFeed {
    /// The response body: a comment, then `id:` / `data:` events and keep-alive comments.
    static func body(store: any RecordStore, after id: UInt64, filter: RecordFilter, streams: LiveStreams) -> ResponseBody {
        ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": mockapns live stream\n\n"))
            var encoder = RecordLineEncoder()
            var lastWrite = ContinuousClock.now
            do {
                for try await batch in store.follow(matching: filter, after: id) {
                    if streams.isClosed { break }
                    if let pruned = batch.pruned {
                        // Store ids are shared by every namespace: the range is known, how many of it were this
                        // namespace's records is not.
                        try await writer.write(ByteBuffer(string: "event: gap\ndata: {\"from\":\(pruned.lowerBound),\"through\":"
                                                          + "\(pruned.upperBound),\"pruned\":true}\n\n"))
                        lastWrite = ContinuousClock.now
                    }
                    guard !batch.records.isEmpty else {
                        if ContinuousClock.now - lastWrite >= streams.heartbeatInterval {
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            lastWrite = ContinuousClock.now
                        }
                        continue
                    }
                    var out = ByteBuffer()
                    out.reserveCapacity(batch.records.count * 1_600)
                    for record in batch.records {
                        out.writeStaticString("id: ")
                        LiveStreams.Feed.writeDecimal(record.seq, to: &out)
                        out.writeStaticString("\ndata: ")
                        encoder.withLine(for: record, linted: true) { line in _ = out.writeBytes(UnsafeBufferPointer(rebasing: line.dropLast())) }
                        out.writeStaticString("\n\n")
                    }
                    try await writer.write(out)
                    lastWrite = ContinuousClock.now
                }
            } catch {
                let message = JSONValue.string("The shared store could not be read: \(store.describe(error))").jsonText()
                try? await writer.write(ByteBuffer(string: "event: error\ndata: {\"error\":\(message)}\n\n"))
            }
            try await writer.finish(nil)
        }
    }
}
