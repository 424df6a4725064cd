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

    /// Appends an integer field.
    mutating func field(_ value: Int64) {
        separate()
        buffer.writeString(String(value))
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
    /// whole (a record's JSON line has no raw control characters, only the backslashes of its own escapes).
    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in bytes.indices {
            let escape: StaticString
            switch bytes[index] {
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\t"): escape = "\\t"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            default: continue
            }
            if index > start { buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index]))) }
            buffer.writeStaticString(escape)
            start = index + 1
        }
        if bytes.count > start { buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...]))) }
    }
}
