#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support

/// A sparse index of the record file: the byte offset and `seq` of every ``stride``-th record in it,
/// extended from where it stopped each time it is used, so a search page reads the few blocks holding the records
/// it wants instead of the whole file again. Memory: one entry per ``stride`` records.
///
/// A record file is appended to across runs and numbering goes on after the highest `seq` already in it (the
/// recording contract), so normally the whole file is one rising sequence and all of it is indexed. A file whose
/// numbering goes down somewhere (written before numbers continued across runs, or files concatenated) is indexed
/// from the last such place, so every number still names one record. The file is read without the lock held.
final class RecordFileIndex: Sendable {
    /// A record's `seq` and where its line starts.
    struct Entry: Sendable {
        let seq: UInt64
        let offset: Int
    }

    /// The index as far as it goes: block `i` runs from `entries[i].offset` to the next entry's offset (the last one
    /// to `end`); every block's records are in `seq` order, starting with `entries[i].seq`.
    struct Snapshot: Sendable {
        var entries: [Entry] = []
        /// The end of the last whole line indexed.
        var end = 0
        var lastSeq: UInt64 = 0
        var sinceEntry = 0
        /// Bumped by `reset()`, so an update that started before it does not store offsets of the old file.
        var generation: UInt64 = 0
    }

    /// Records per index entry: a block is read and decoded whole, so this bounds the work per page too.
    static let stride = 256

    private let state = Locked(Snapshot())

    /// Forgets the index: the file at the path was replaced (rotation) or cut, so its offsets name other lines now.
    func reset() {
        state.withLock { $0 = Snapshot(generation: $0.generation &+ 1) }
    }

    /// The index extended to the file's current end (whole lines only).
    /// - Throws: ``RecorderError`` when the file cannot be read.
    func update(path: String) throws(RecorderError) -> Snapshot {
        var index = state.withLock { $0 }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, Int(status.st_size) < index.end {   // replaced or cut
            index = Snapshot(generation: index.generation)
        }
        let start = index.end
        let end = try RecordFileScanner.lines(descriptor: descriptor, path: path, from: start, to: nil) { line throws(RecorderError) in
            guard !line.unterminated, let seq = RecordSeqPrefix.seq(of: line.bytes) else { return true }
            if seq <= index.lastSeq {   // numbering starts again: only what follows is one sequence
                index.entries.removeAll()
                index.sinceEntry = 0
            }
            if index.sinceEntry == 0 { index.entries.append(Entry(seq: seq, offset: line.offset)) }
            index.sinceEntry = (index.sinceEntry + 1) % Self.stride
            index.lastSeq = seq
            return true
        }
        index.end = end
        let result = index
        state.withLock { stored in
            guard stored.generation == result.generation else { return }
            if stored.end == start || result.end > stored.end { stored = result }
        }
        return result
    }
}
