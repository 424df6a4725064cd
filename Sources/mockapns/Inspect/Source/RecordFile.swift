import APNsModel
import Foundation
import MockAPNs

/// A JSON Lines recording (`mockapns serve --record rec.jsonl`): one record per line.
struct RecordFile: Sendable {
    /// The file's path as given.
    let path: String

    /// How often ``follow(matching:includeExisting:)`` looks for appended lines.
    static let pollInterval: Duration = .milliseconds(200)

    /// Every record in the file, in file order. A last line still being written (no newline, not
    /// parseable yet) is left out; any other bad line is an error naming its line number.
    func load() throws(InspectError) -> [RecordedRequest] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied or not a regular file" : "no such file")
        }
        var reader = LineReader()
        var records: [RecordedRequest] = []
        for (number, line) in reader.feed(Array(data)) {
            records.append(try parse(line, lineNumber: number))
        }
        if let (number, rest) = reader.remainder, let record = try? parse(rest, lineNumber: number) {
            records.append(record)
        }
        return records
    }

    /// One line as a record.
    func parse(_ line: [UInt8], lineNumber: Int) throws(InspectError) -> RecordedRequest {
        do {
            return try RecordedRequest(jsonLine: line)
        } catch {
            throw .unreadable(path: path, reason: "line \(lineNumber) is not a mockapns record (\(error)); is this a file written by `mockapns serve --record`?")
        }
    }

    /// The records matching `filter` as they are appended (like `tail -f`); a truncated file is read
    /// again from its start.
    func follow(matching filter: RecordFilter, includeExisting: Bool) throws(InspectError) -> AsyncThrowingStream<RecordedRequest, any Error> {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file, or not readable")
        }
        let start: UInt64 = includeExisting ? 0 : Self.size(of: path)
        let file = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                var offset = start
                var reader = LineReader()
                var sinceFilter = filter
                sinceFilter.limit = nil
                do {
                    while !Task.isCancelled {
                        let size = Self.size(of: file.path)
                        if size < offset {
                            offset = 0
                            reader = LineReader()
                        }
                        if size > offset, let chunk = Self.read(file.path, from: offset) {
                            offset += UInt64(chunk.count)
                            for (number, line) in reader.feed(chunk) {
                                let record = try file.parse(line, lineNumber: number)
                                if sinceFilter.matches(record) { continuation.yield(record) }
                            }
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

    private static func size(of path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    private static func read(_ path: String, from offset: UInt64) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: offset)
            return try handle.readToEnd().map(Array.init)
        } catch {
            return nil
        }
    }
}
