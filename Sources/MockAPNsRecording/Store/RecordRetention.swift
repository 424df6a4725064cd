/// Which records a store may let go of (`prune`): past a count, past an age, or both. Mailpit's `--max` and
/// `--max-age` are the model; a store prunes oldest first so that the newest records always survive.
public struct RecordRetention: Sendable, Equatable {
    /// Keep at most this many records (the newest); nil = no bound on the count.
    public var keepNewest: Int?
    /// Forget records received before this time (milliseconds since 1970); nil = no bound on the age.
    public var receivedBeforeMillis: Int64?

    /// A retention policy; with no arguments it keeps everything.
    public init(keepNewest: Int? = nil, receivedBeforeMillis: Int64? = nil) {
        self.keepNewest = keepNewest.map { max(0, $0) }
        self.receivedBeforeMillis = receivedBeforeMillis
    }

    /// Whether the policy can forget anything at all.
    public var isUnbounded: Bool { keepNewest == nil && receivedBeforeMillis == nil }
}
