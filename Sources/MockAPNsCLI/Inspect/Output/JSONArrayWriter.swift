import APNsModel

/// Feeds elements through a ``JSONArrayStream`` into a ``BufferedOutput``: the head before the first element,
/// separators between them, and the tail (or the empty document) at the end.
struct JSONArrayWriter {
    /// The document's shape.
    let stream: JSONArrayStream
    /// Elements written so far.
    private(set) var count = 0

    /// A writer for `stream`.
    init(_ stream: JSONArrayStream) {
        self.stream = stream
    }

    /// Writes one element.
    mutating func add(_ value: JSONValue, to output: inout BufferedOutput) throws(InspectError) {
        try output.write(count == 0 ? stream.head : stream.separator)
        try output.write(bytes: stream.element(value))
        count += 1
    }

    /// Ends the document.
    func finish(to output: inout BufferedOutput) throws(InspectError) {
        try output.write(count == 0 ? stream.empty : stream.tail)
    }
}
