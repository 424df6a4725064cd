import Support
import APNsModel
import NIOCore

/// Rows for `COPY … FROM STDIN WITH (FORMAT text)`, written straight into the buffer sent to the server: fields
/// separated by tabs, rows ended by newlines, `\N` for NULL, and a backslash, tab, newline or carriage return inside
/// a value written as its backslash escape (PostgreSQL's text format).
///
/// It is how the store writes a batch: one COPY costs the database far less than parsing a multi-row `INSERT` with
/// ten parameters per record, and costs the mock no per-value bind encoding.
struct CopyTextRows {
    /// The rows written so far.
    private(set) var buffer: ByteBuffer
    private var atRowStart = true

    /// Empty rows, with room for about `capacity` bytes.
    init(capacity: Int) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// Empty rows written into `buffer` (cleared; its storage is reused when nothing else holds it, so a writer
    /// sending batch after batch does not map fresh pages for each).
    init(reusing buffer: ByteBuffer, capacity: Int) {
        self.buffer = buffer
        self.buffer.clear(minimumCapacity: capacity)
    }

    /// Appends a text field; nil is NULL.
    mutating func field(_ text: String?) {
        separate()
        guard var text else {
            buffer.writeStaticString("\\N")
            return
        }
        text.withUTF8 { writeEscaped($0) }
    }

    /// Appends a text field from UTF-8 bytes.
    mutating func field(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        writeEscaped(bytes)
    }

    /// Appends an integer field, its digits written straight into the buffer (three per record: no String each).
    mutating func field(_ value: Int64) {
        separate()
        DecimalDigits.withDigits(of: value) { _ = buffer.writeBytes($0) }
    }

    /// Appends a boolean field (`t` or `f`).
    mutating func field(_ value: Bool) {
        separate()
        buffer.writeInteger(value ? UInt8(ascii: "t") : UInt8(ascii: "f"))
    }

    /// Ends the current row.
    mutating func endRow() {
        buffer.writeInteger(UInt8(ascii: "\n"))
        atRowStart = true
    }

    private mutating func separate() {
        if atRowStart {
            atRowStart = false
        } else {
            buffer.writeInteger(UInt8(ascii: "\t"))
        }
    }

    /// Copies `bytes`, escaping the four bytes the text format gives a meaning to; runs between them are copied
    /// whole (a record's JSON line has no raw control characters, only the backslashes of its own escapes). Eight
    /// bytes are checked at a time: a line is a kilobyte or more, and most of its words hold none of the four.
    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !Self.mayNeedEscape(word) {
                    index += 8
                    continue
                }
            }
            let escape: StaticString
            switch base[index] {
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\t"): escape = "\\t"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            default:
                index += 1
                continue
            }
            if index > start { buffer.writeBytes(UnsafeRawBufferPointer(start: base + start, count: index - start)) }
            buffer.writeStaticString(escape)
            index += 1
            start = index
        }
        if count > start { buffer.writeBytes(UnsafeRawBufferPointer(start: base + start, count: count - start)) }
    }

    /// Whether any byte of `word` may be a backslash, tab, newline or carriage return (never false when one is:
    /// the usual test for a zero byte, on the word XORed with each of the four repeated).
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        return hasZeroByte(word ^ (ones &* 0x5C)) || hasZeroByte(word ^ (ones &* 0x09))
            || hasZeroByte(word ^ (ones &* 0x0A)) || hasZeroByte(word ^ (ones &* 0x0D))
    }
}
