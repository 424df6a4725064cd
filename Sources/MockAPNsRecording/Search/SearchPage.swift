/// One page of search results, newest first, and where the next (older) page starts.
public struct SearchPage: Sendable {
    /// The matching records, newest first, with lint findings.
    public var records: [RecordedRequest]
    /// Pass as `before` to get the next older page; nil when there are no older records to look at.
    public var nextBefore: UInt64?
    /// True when some of the page came from the record file (older than the memory ring).
    public var readFile: Bool

    /// A page: `records` newest first, the `before` of the next older page, and whether the record file was read.
    public init(records: [RecordedRequest], nextBefore: UInt64?, readFile: Bool) {
        self.records = records
        self.nextBefore = nextBefore
        self.readFile = readFile
    }
}
