/// Splits a byte stream into lines, keeping an incomplete last line until its newline arrives.
struct LineReader {
    private var pending: [UInt8] = []
    private var lineNumber = 0

    /// The complete, non-blank lines in `bytes` (plus what was pending), with 1-based line numbers.
    mutating func feed(_ bytes: [UInt8]) -> [(Int, [UInt8])] {
        pending.append(contentsOf: bytes)
        var lines: [(Int, [UInt8])] = []
        var start = 0
        for index in pending.indices where pending[index] == UInt8(ascii: "\n") {
            lineNumber += 1
            var line = Array(pending[start..<index])
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                lines.append((lineNumber, line))
            }
            start = index + 1
        }
        pending.removeFirst(start)
        return lines
    }

    /// The text after the last newline, if any, with the line number it would have.
    var remainder: (Int, [UInt8])? {
        pending.isEmpty ? nil : (lineNumber + 1, pending)
    }
}
