#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import APNsModel
import Foundation
import MockAPNsRecording

/// A JSON Lines recording (`mockapns serve --record rec.jsonl`): one record per line.
///
/// Every read streams: records are decoded one line at a time from fixed-size chunks and handed on, so memory does
/// not grow with the file (a load test's recording may hold millions of pushes). A last line still being written (no
/// newline, not parseable yet) is left out; any other bad line is an error naming its line number.
struct RecordFile: RecordSource {
    /// The file's path as given.
    let path: String

    /// The path, for messages.
    var label: String { path }

    /// The records that match `filter`, oldest first: only the matches are kept, and with a limit only the newest
    /// ones, read from the end of the file.
    func records(matching filter: RecordFilter) throws(InspectError) -> [RecordedRequest] {
        if let limit = filter.limit, limit >= 0 { return try newest(limit, matching: filter) }
        var matches: [RecordedRequest] = []
        try forEachRecord { record in
            if filter.matches(record) { matches.append(record) }
            return true
        }
        return matches
    }

    /// How often ``follow(matching:includeExisting:)`` looks for appended lines.
    static let pollInterval: Duration = .milliseconds(200)

    /// Calls `body` with every record in file order until it returns false. Reads only lines starting before `end`
    /// when it is given. Returns the offset where reading stopped (for a second pass over the same lines).
    @discardableResult
    func forEachRecord(upTo end: Int? = nil, _ body: (RecordedRequest) throws -> Bool) throws(InspectError) -> Int {
        try withOpenFile { descriptor, _ in
            let scanner = RecordLineScanner(descriptor: descriptor, path: path, end: end)
            var stoppedAt = 0
            let last = try scanner.forEachLine { line in
                if line.unterminated {
                    guard let record = try? RecordedRequest(jsonLine: line.bytes) else { return true }
                    stoppedAt = line.offset + line.bytes.count
                    return try body(record)
                }
                return try body(try parse(line.bytes, lineNumber: line.number))
            }
            return max(last.end, stoppedAt)
        }
    }

    /// The newest `limit` records matching `filter`, oldest first, read from the end of the file backwards.
    ///
    /// Only the lines read are checked: a bad line older than the records returned is not reported.
    func newest(_ limit: Int, matching filter: RecordFilter) throws(InspectError) -> [RecordedRequest] {
        try withOpenFile { descriptor, size in
            var found: [RecordedRequest] = []
            guard limit > 0 else { return found }
            let scanner = RecordLineBackwardScanner(descriptor: descriptor, path: path, end: size)
            try scanner.forEachLine { line in
                let record: RecordedRequest
                if line.unterminated {
                    guard let parsed = try? RecordedRequest(jsonLine: line.bytes) else { return true }
                    record = parsed
                } else {
                    do {
                        record = try RecordedRequest(jsonLine: line.bytes)
                    } catch {
                        throw notARecord(lineNumber: try scanner.lineNumber(at: line.offset), error)
                    }
                }
                if filter.matches(record) { found.append(record) }
                return found.count < limit
            }
            return found.reversed()
        }
    }

    /// The record with sequence number or apns-id `id` (a number is looked up as `seq` first), or nil.
    ///
    /// A number is found by bisecting the file (lines are in `seq` order); when that fails, or for an apns-id, the
    /// file is read front to back up to the first match.
    func record(_ id: String) throws(InspectError) -> RecordedRequest? {
        let number = UInt64(id)
        if let number {
            let found = try withOpenFile { descriptor, size in
                try RecordSeqSearch(descriptor: descriptor, path: path, size: size).find(number)
            }
            if let found { return found }
        }
        let lowered = id.lowercased()
        var bySeq: RecordedRequest?
        var byID: RecordedRequest?
        try forEachRecord { record in
            if let number, record.seq == number {
                bySeq = record
                return false
            }
            if byID == nil, record.response.apnsID?.lowercased() == lowered {
                byID = record
                return number != nil
            }
            return true
        }
        return bySeq ?? byID
    }

    /// One line as a record.
    func parse(_ line: some Collection<UInt8>, lineNumber: Int) throws(InspectError) -> RecordedRequest {
        do {
            return try RecordedRequest(jsonLine: line)
        } catch {
            throw notARecord(lineNumber: lineNumber, error)
        }
    }

    /// The error for a line that does not decode.
    private func notARecord(lineNumber: Int, _ error: any Error) -> InspectError {
        .unreadable(path: path, reason: "line \(lineNumber) is not a mockapns record (\(error)); is this a file written by `mockapns serve --record`?")
    }

    /// Opens the file, runs `body` with its descriptor and size, closes it; read errors become ``InspectError``s.
    private func withOpenFile<T>(_ body: (Int32, Int) throws -> T) throws(InspectError) -> T {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0 else {
            let missing = errno == ENOENT
            throw .unreadable(path: path, reason: missing ? "no such file" : "permission denied or not a regular file")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw .unreadable(path: path, reason: "permission denied or not a regular file")
        }
        do {
            return try body(descriptor, Int(status.st_size))
        } catch {
            throw .wrapping(error, source: path)
        }
    }

    /// The records matching `filter` as they are appended (like `tail -f`); a truncated file is read
    /// again from its start. Reads at most one chunk at a time, so following a large file holds none of it.
    func follow(matching filter: RecordFilter, includeExisting: Bool) throws(InspectError) -> AsyncThrowingStream<RecordedRequest, any Error> {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file, or not readable")
        }
        let start: UInt64 = includeExisting ? 0 : Self.size(of: path)
        let file = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                var offset = Int(start)
                var linesBefore = 0
                var sinceFilter = filter
                sinceFilter.limit = nil
                do {
                    while !Task.isCancelled {
                        let size = Int(Self.size(of: file.path))
                        if size < offset {   // cut or replaced: read it again from its start
                            offset = 0
                            linesBefore = 0
                        }
                        if size > offset {
                            // Whole lines only: a line still being written is read again once its newline is there.
                            let progress = try file.readAppended(from: offset, firstLineNumber: linesBefore + 1) { record in
                                if sinceFilter.matches(record) { continuation.yield(record) }
                            }
                            offset = progress.end
                            linesBefore += progress.lines
                        }
                        try await Task.sleep(for: Self.pollInterval)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The records on the whole lines from `offset` on (numbered from `firstLineNumber` in messages), one chunk in
    /// memory at a time; returns how far it read. A file missing for a moment (being rotated) is read on the next poll.
    private func readAppended(from offset: Int, firstLineNumber: Int,
                              _ body: (RecordedRequest) -> Void) throws -> RecordLineScanner.Progress {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return RecordLineScanner.Progress(end: offset, lines: 0) }
        defer { close(descriptor) }
        var scanner = RecordLineScanner(descriptor: descriptor, path: path, start: offset)
        scanner.firstLineNumber = firstLineNumber
        return try scanner.forEachLine { line in
            guard !line.unterminated else { return true }
            body(try parse(line.bytes, lineNumber: line.number))
            return !Task.isCancelled
        }
    }

    private static func size(of path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }
}
