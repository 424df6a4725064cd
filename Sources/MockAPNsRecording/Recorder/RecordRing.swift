/// The newest records in memory, numbered: a fixed-size ring that gives each record the next `seq`, pushes the
/// oldest out when full, and answers reads by number.
///
/// A value with no lock of its own: the ``Recorder`` keeps it under its one lock, beside the ``RecordFeed``, so that
/// a record's number, its place in the ring and the waiters' counts change together.
struct RecordRing {
    private var slots: [NumberedRecord?]
    /// Index of the oldest record.
    private var head = 0
    /// How many slots hold records.
    private(set) var count = 0
    /// The number of the last record (0 when none yet); it goes on across `clear()`.
    private(set) var lastSeq: UInt64
    /// `clear()` forgets records up to here, in the record file's view too.
    private(set) var clearedThrough: UInt64 = 0

    /// An empty ring of `capacity` slots (at least 1) whose first record is numbered `lastSeq + 1`.
    init(capacity: Int, lastSeq: UInt64) {
        slots = Array(repeating: nil, count: max(1, capacity))
        self.lastSeq = lastSeq
    }

    /// The number of the oldest record in memory (`lastSeq + 1` when the ring is empty).
    var oldestSeq: UInt64 { lastSeq - UInt64(count) + 1 }

    /// The oldest record in memory.
    var oldest: NumberedRecord? { count > 0 ? slots[head] : nil }

    /// Numbers `record` (the next `seq`) and puts it in the ring; returns the record it pushed out, for the caller to
    /// release after its lock.
    mutating func append(_ record: NumberedRecord) -> NumberedRecord? {
        lastSeq += 1
        record.number(lastSeq)
        let capacity = slots.count
        if count < capacity {
            slots[(head + count) % capacity] = record
            count += 1
            return nil
        }
        let evicted = slots[head]
        slots[head] = record
        head = (head + 1) % capacity
        return evicted
    }

    /// Takes the oldest record out of the ring (retention letting it go); nil when the ring is empty.
    mutating func removeOldest() -> NumberedRecord? {
        guard count > 0 else { return nil }
        let oldest = slots[head]
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        return oldest
    }

    /// Forgets every record; numbering goes on after `lastSeq`.
    mutating func clear() {
        slots = Array(repeating: nil, count: slots.count)
        head = 0
        count = 0
        clearedThrough = lastSeq
    }

    /// The numbered record `seq`, if the ring still holds it.
    func record(seq: UInt64) -> NumberedRecord? {
        guard count > 0, seq >= 1, seq <= lastSeq else { return nil }
        let oldest = oldestSeq
        guard seq >= oldest else { return nil }
        return slots[(head + Int(seq - oldest)) % slots.count]
    }

    /// Every record in memory, oldest first.
    func ordered() -> [RecordedRequest] {
        (0..<count).compactMap { slots[(head + $0) % slots.count]?.record }
    }

    /// Up to `limit` records numbered after `seq` that are still in memory, oldest first.
    func records(after seq: UInt64, limit: Int) -> [RecordedRequest] {
        guard limit > 0, count > 0, seq < lastSeq else { return [] }
        return stored(from: max(seq + 1, oldestSeq), limit: limit).map(\.record)
    }

    /// Up to `limit` numbered records after `cursor` (past what `clear()` forgot), and the range after `cursor` that the
    /// ring no longer holds: what a follower at `cursor` reads next.
    func read(after cursor: UInt64, limit: Int) -> (skipped: ClosedRange<UInt64>?, records: [NumberedRecord], last: UInt64) {
        let cursor = max(cursor, clearedThrough)
        // A cursor from the wire (`since`) may be any number: nothing lies after one at or past the last record,
        // and below it `cursor + 1` cannot overflow.
        guard cursor < lastSeq else { return (nil, [], lastSeq) }
        let oldest = oldestSeq
        var skipped: ClosedRange<UInt64>?
        if cursor + 1 < oldest { skipped = (cursor + 1)...(oldest - 1) }
        let first = max(cursor + 1, oldest)
        guard count > 0, first <= lastSeq, limit > 0 else { return (skipped, [], lastSeq) }
        return (skipped, stored(from: first, limit: limit), lastSeq)
    }

    /// Up to `limit` numbered records from the one numbered `first` (which the ring holds) on.
    private func stored(from first: UInt64, limit: Int) -> [NumberedRecord] {
        let taken = Int(min(UInt64(limit), lastSeq - first + 1))
        let start = Int(first - oldestSeq)
        return (0..<taken).compactMap { slots[(head + start + $0) % slots.count] }
    }
}
