#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Collects output text and writes it to a file descriptor in blocks: commands that stream a recording print as
/// they read, with one `write(2)` per block instead of one per record and without holding the whole output.
struct BufferedOutput {
    /// Bytes collected before a write.
    static let blockSize = 256 << 10

    /// Where the text goes.
    let descriptor: Int32
    /// Names the destination in messages.
    let label: String
    private var pending: [UInt8] = []

    /// Output to `descriptor` (standard output: `STDOUT_FILENO`).
    init(descriptor: Int32, label: String) {
        self.descriptor = descriptor
        self.label = label
        pending.reserveCapacity(Self.blockSize)
    }

    /// Adds `text`, writing a block once enough is collected.
    /// - Throws: ``InspectError/unwritable(path:reason:)`` when the destination refuses the bytes.
    mutating func write(_ text: String) throws(InspectError) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.blockSize { try flush() }
    }

    /// Adds UTF-8 `bytes`, writing a block once enough is collected.
    /// - Throws: ``InspectError/unwritable(path:reason:)`` when the destination refuses the bytes.
    mutating func write(bytes: [UInt8]) throws(InspectError) {
        pending.append(contentsOf: bytes)
        if pending.count >= Self.blockSize { try flush() }
    }

    /// Writes whatever is collected.
    /// - Throws: ``InspectError/unwritable(path:reason:)`` when the destination refuses the bytes.
    mutating func flush() throws(InspectError) {
        var done = 0
        while done < pending.count {
            let written = pending.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .unwritable(path: label, reason: String(cString: strerror(errno)))
            }
            done += written
        }
        pending.removeAll(keepingCapacity: true)
    }
}
