import APNsModel
import DeviceSimulation

/// Lint findings by payload content, in a fixed table of `slots` entries indexed by a cheap hash of the body: a
/// payload's findings replace whatever its slot held before. Not locked: `LintMemo` guards one for every reader of
/// records, and the file writer's encoder owns one (its thread is the only one to use it, so a record costs no lock).
///
/// Why this shape: it must cost next to nothing when payloads never repeat (a sender with a payload per push): one
/// pass of multiply-and-rotate over the body's words and one integer compare, no rehashing, no growth. Bounded by
/// construction; colliding payloads only miss (a hostile sender can make entries evict each other, never make a
/// lookup slower). The memory is taken on first use.
struct LintMemoTable {
    struct Entry {
        var key: LintMemo.Key
        var findings: [LintFinding]
    }

    /// How many payloads a table holds at most (a power of two).
    static let slots = 1024

    /// Each slot's full hash beside its entry: a payload seen for the first time is told apart by one integer
    /// compare, without touching the entry.
    private var hashes: [UInt64] = []
    private var entries: [Entry?] = []

    /// The slot for `hash`.
    static func slot(for hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash) & (slots - 1)
    }

    /// The findings remembered for `key` (whose `LintMemo.hash` is `hash`), if any.
    func findings(for key: LintMemo.Key, hash: UInt64) -> [LintFinding]? {
        guard !hashes.isEmpty else { return nil }
        let slot = Self.slot(for: hash)
        guard hashes[slot] == hash, let entry = entries[slot], entry.key == key else { return nil }
        return entry.findings
    }

    /// Remembers `findings` for `key`; returns the entry it replaced (for the caller to release where it likes).
    mutating func remember(_ findings: [LintFinding], for key: LintMemo.Key, hash: UInt64) -> Entry? {
        if hashes.isEmpty {
            hashes = [UInt64](repeating: 0, count: Self.slots)
            entries = [Entry?](repeating: nil, count: Self.slots)
        }
        let slot = Self.slot(for: hash)
        let evicted = entries[slot]
        hashes[slot] = hash
        entries[slot] = Entry(key: key, findings: findings)
        return evicted
    }

    /// The findings for `key`, computed by `lint` the first time (and again once another payload took its slot).
    mutating func findings(for key: LintMemo.Key, lint: () -> [LintFinding]) -> [LintFinding] {
        let hash = LintMemo.hash(key)
        if let known = findings(for: key, hash: hash) { return known }
        let findings = lint()
        _ = remember(findings, for: key, hash: hash)
        return findings
    }
}
