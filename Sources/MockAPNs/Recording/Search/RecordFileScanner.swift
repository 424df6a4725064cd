#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a JSON Lines record file front to back in fixed-size chunks, handing each record to a closure:
/// memory stays bounded by the chunk size and the longest line, however large the file.
enum RecordFileScanner {
    /// Keeps the last `limit` records appended (file order) and whether any older one was dropped.
    struct Tail {
        let limit: Int
        private var ring: [RecordedRequest] = []
        private var next = 0
        /// True when more than `limit` records were appended.
        private(set) var droppedAny = false

        init(limit: Int) {
            self.limit = limit
        }

        mutating func append(_ record: RecordedRequest) {
            if ring.count < limit {
                ring.append(record)
            } else {
                ring[next] = record
                next = (next + 1) % limit
                droppedAny = true
            }
        }

        /// The kept records, newest first.
        var newestFirst: [RecordedRequest] {
            Array((ring[next...] + ring[..<next]).reversed())
        }
    }

    /// Calls `body` with every record in the file at `path`, in file order. Lines that are not records (a last
    /// line still being written) are skipped.
    static func scan(path: String, _ body: (RecordedRequest) -> Void) throws(RecorderError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpenFile(path: path, errno: errno) }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                line.append(contentsOf: chunk[start..<index])
                if let record = try? RecordedRequest(jsonLine: line) { body(record) }
                line.removeAll(keepingCapacity: true)
                start = index + 1
            }
            line.append(contentsOf: chunk[start..<count])
        }
        if !line.isEmpty, let record = try? RecordedRequest(jsonLine: line) { body(record) }
    }
}
