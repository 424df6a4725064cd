/// Why a byte sequence is not a JSON text, and where: `offset` is the 0-based byte at which parsing stopped;
/// `line` and `column` (1-based, columns counted in bytes) and `excerpt` (the text around it) say the same for
/// a person looking at the file.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset of the problem.
    public var offset: Int
    /// What was wrong there, e.g. "expected ':' after an object key".
    public var message: String
    /// 1-based line of `offset` (0 when unknown).
    public var line: Int
    /// 1-based byte column of `offset` in its line (0 when unknown).
    public var column: Int
    /// Up to 20 bytes of text either side of `offset` on its line, with `⟨here⟩` marking the spot ("" when unknown).
    public var excerpt: String

    /// Makes a parse error.
    public init(offset: Int, message: String, line: Int = 0, column: Int = 0, excerpt: String = "") {
        self.offset = offset
        self.message = message
        self.line = line
        self.column = column
        self.excerpt = excerpt
    }

    /// Locates `offset` in `bytes`: line, column and the text around it. Run only when parsing failed.
    init(offset: Int, message: String, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1, lineStart = 0
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        var lineEnd = end
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
        let before = String(decoding: bytes[max(lineStart, end - 20)..<end], as: UTF8.self)
        let after = String(decoding: bytes[end..<min(lineEnd, end + 20)], as: UTF8.self)
        self.init(offset: offset, message: message, line: line, column: end - lineStart + 1,
                  excerpt: before + "⟨here⟩" + after)
    }

    /// "invalid JSON at line 2, column 14 (byte 34): expected ':' after an object key: `"title" ⟨here⟩"Shipped"`".
    public var description: String {
        guard line > 0 else { return "invalid JSON at byte \(offset): \(message)" }
        return "invalid JSON at line \(line), column \(column) (byte \(offset)): \(message): `\(excerpt)`"
    }
}
