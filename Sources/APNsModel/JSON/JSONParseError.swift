/// Why a byte sequence is not a JSON text, and where: `offset` is the 0-based byte at which parsing stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based byte offset of the problem.
    public var offset: Int
    /// What was wrong there, e.g. "expected ':' after an object key".
    public var message: String

    /// Makes a parse error.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// "invalid JSON at byte 12: expected ':' after an object key".
    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
