/// A few arrays, remembered by their storage, each with something computed from it.
///
/// Records of a sender that repeats a header list or payload share the storage of those arrays (the transport
/// hands a repeat over as the earlier array), and records from several connections interleave: a handful of
/// entries recognises each connection's repeat by one pointer comparison, where hashing the bytes would cost
/// about as much as computing the value again. An array is kept alive while remembered, so the same storage
/// always means the same, unchanged elements (shared storage is never written in place).
struct StorageMemo<Element, Value> {
    private var keys: [[Element]] = []
    private var values: [Value] = []
    private var next = 0
    /// How many arrays are remembered at most; the oldest is replaced first.
    let capacity: Int

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// The value remembered for `key`'s storage, if any (never for an empty array: all of those share one storage).
    func value(for key: [Element]) -> Value? {
        guard !key.isEmpty else { return nil }
        for index in keys.indices where keys[index].sharesStorage(with: key) { return values[index] }
        return nil
    }

    /// Remembers `value` for `key`'s storage.
    mutating func remember(_ value: Value, for key: [Element]) {
        guard !key.isEmpty else { return }
        if keys.count < capacity {
            keys.append(key)
            values.append(value)
            return
        }
        keys[next] = key
        values[next] = value
        next = (next + 1) % capacity
    }
}
