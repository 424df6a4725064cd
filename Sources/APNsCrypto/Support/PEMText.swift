/// What a PEM text says about itself before OpenSSL reads it: the labels of its blocks, and whether its line breaks
/// were escaped on the way (a key copied out of a JSON string keeps `\n` as two characters).
enum PEMText {
    /// The label of every `-----BEGIN <label>-----` line, in order (`PRIVATE KEY`, `CERTIFICATE`, …).
    static func labels(in text: String) -> [String] {
        var labels: [String] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN ") {
            rest = rest[begin.upperBound...]
            guard let end = rest.range(of: "-----") else { break }
            labels.append(String(rest[..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return labels
    }

    /// True when the first block of `text` (from its BEGIN line to its END line) has a literal backslash-n and no
    /// line break: whatever follows the block (a newline `echo` added) does not count.
    static func hasEscapedLineBreaks(_ text: String) -> Bool {
        guard let begin = text.range(of: "-----BEGIN ") else { return false }
        var block = text[begin.upperBound...]
        if let end = block.range(of: "-----END ") { block = block[..<end.lowerBound] }
        return block.contains("\\n") && !block.contains(where: \.isNewline)
    }
}
