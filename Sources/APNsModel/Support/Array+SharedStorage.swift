extension Array {
    /// Whether `self` and `other` are one buffer, not merely equal: then they hold the same elements, since a
    /// shared buffer is never written in place. Empty arrays all share one buffer, so they answer true.
    ///
    /// The server hands a request's repeated header list or body over as the earlier array (HPACK-style reuse in
    /// the transport); caches across the package use this one comparison to recognise a repeat.
    package func sharesStorage(with other: [Element]) -> Bool {
        count == other.count && withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }
}
