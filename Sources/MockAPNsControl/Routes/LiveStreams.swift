import APNsModel
import Hummingbird
import MockAPNsRecording
import Support

/// The `/api/v1/stream` feeds: each reads the recorder by position (`RecordFollower`) on its own task and writes
/// server-sent events, so the server's loop threads do no work per record for any number of feeds, each record's
/// JSON line is encoded once for all of them, and a feed that falls behind is told what it skipped.
///
/// Kept here so that stopping the server can end the feeds (an open event stream would otherwise hold the graceful
/// shutdown until its grace period ran out). A feed writes a heartbeat comment after ``heartbeatInterval`` without
/// records: it keeps idle connections alive through proxies and lets the server notice clients that went away.
final class LiveStreams: Sendable {
    private let recorder: Recorder
    /// How long a feed stays silent before writing a keep-alive comment.
    let heartbeatInterval: Duration
    private let closed = Locked(false)

    /// Follows `recorder`, with a heartbeat every `heartbeatInterval`.
    init(recorder: Recorder, heartbeatInterval: Duration = .seconds(15)) {
        self.recorder = recorder
        self.heartbeatInterval = heartbeatInterval
    }

    /// Whether `closeAll()` ran: feeds stop at their next wake-up.
    var isClosed: Bool { closed.withLock { $0 } }

    /// A feed's reader: records after `seq` that pass `filter`, encoded as server-sent events.
    /// With `newest`, each read sends at most that many of the records waiting (the newest) and an `elided` event
    /// for the ones passed over: what a list showing only its newest rows needs during a burst.
    func feed(after seq: UInt64, filter: RecordFilter, newest: Int? = nil) -> Feed {
        var follower = RecordFollower(recorder: recorder, after: seq)
        follower.keepNewest = newest
        return Feed(streams: self, follower: follower, filter: filter)
    }

    /// Ends every feed (at once for those waiting for records, at their next batch for the others) and refuses new
    /// ones.
    func closeAll() {
        closed.withLock { $0 = true }
        recorder.wakeFollowers()
    }

    /// One client's feed.
    struct Feed {
        let streams: LiveStreams
        var follower: RecordFollower
        let filter: RecordFilter
        private var encoder = RecordLineEncoder()
        private var silentFor: Duration = .zero
        /// Whether the filter passes every record (nothing to decode per record).
        private let passesAll: Bool

        init(streams: LiveStreams, follower: RecordFollower, filter: RecordFilter) {
            self.streams = streams
            self.follower = follower
            self.filter = filter
            passesAll = filter == RecordFilter()
        }

        /// The next bytes to write (one or more events, or a keep-alive comment), or nil when the feed ends.
        mutating func next() async -> ByteBuffer? {
            // Wake at least every second, so a closing server is noticed even by a feed that just started waiting.
            let wake = min(streams.heartbeatInterval, .seconds(1))
            while !streams.isClosed {
                let started = ContinuousClock.now
                guard let batch = await follower.next(timeout: wake) else { return nil }
                if streams.isClosed { return nil }
                var out = ByteBuffer()
                out.reserveCapacity(batch.records.count * 1_600 + 256)
                if let elided = batch.elided { out.writeString(Self.rangeEvent("elided", elided)) }
                if let skipped = batch.skipped { out.writeString(Self.rangeEvent("gap", skipped)) }
                for record in batch.records where passesAll || filter.matches(record.record) {
                    let line = encoder.line(for: record)
                    out.writeStaticString("id: ")
                    Self.writeDecimal(record.seq, to: &out)
                    out.writeStaticString("\ndata: ")
                    _ = line.withUnsafeBytes { out.writeBytes(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }   // its newline ends the field
                    out.writeStaticString("\n\n")
                }
                if out.readableBytes > 0 {
                    silentFor = .zero
                    return out
                }
                silentFor += ContinuousClock.now - started
                if silentFor >= streams.heartbeatInterval {
                    silentFor = .zero
                    return ByteBuffer(string: ": keep-alive\n\n")
                }
            }
            return nil
        }

        /// `value` in decimal, without building a String (once per record per feed).
        static func writeDecimal(_ value: UInt64, to out: inout ByteBuffer) {
            DecimalDigits.withDigits(of: value) { _ = out.writeBytes($0) }
        }

        /// An event naming a range of records the follower did not get: `gap` (the server no longer had them) or
        /// `elided` (passed over because the follower asked for only the newest), with the range and how many.
        static func rangeEvent(_ name: String, _ range: ClosedRange<UInt64>) -> String {
            let count = range.upperBound - range.lowerBound + 1
            return "event: \(name)\ndata: {\"from\":\(range.lowerBound),\"through\":\(range.upperBound),\"count\":\(count)}\n\n"
        }
    }
}
