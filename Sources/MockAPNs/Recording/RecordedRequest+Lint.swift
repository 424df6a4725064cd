import APNsModel
import Synchronized
#if canImport(Glibc)
import Glibc
#endif

extension RecordedRequest {
    /// The record with its payload lint findings filled in (what APNs accepts but a device may mishandle).
    ///
    /// Lint is a pure function of the recorded body and of the push-type, priority and topic headers, so the
    /// recorder computes it off the request path (on the file writer's thread, for queries, for live
    /// subscribers) and remembers the answer for a repeated payload: senders send the same payload to many
    /// devices, and re-parsing it for every record would cost more than the rest of the record.
    public func withLint() -> RecordedRequest {
        let findings = lintFindings()
        guard lint.isEmpty, !findings.isEmpty else { return self }
        var copy = self
        copy.lint = findings
        return copy
    }

    /// The findings `withLint()` fills in: `lint` when already set, else computed (or remembered) from the payload.
    func lintFindings() -> [LintFinding] {
        guard lint.isEmpty, Self.isLinted(method: method, deviceToken: deviceToken, body: body) else { return lint }
        let key = LintMemo.Key(body: body, pushType: header("apns-push-type"), priority: header("apns-priority"),
                               topic: header("apns-topic"), payloadBytes: payloadBytes)
        let findings = LintMemo.shared.findings(for: key) {
            guard let payload else { return [] }
            return PayloadLinter.lint(
                payload: payload,
                pushType: key.pushType.flatMap(PushType.init(rawValue:)),
                priority: key.priority.flatMap { Int($0) }.flatMap(Priority.init(rawValue:)),
                topic: key.topic,
                payloadBytes: payloadBytes)
        }
        return findings
    }

    /// Whether a record gets lint findings at all: device pushes with a body.
    static func isLinted(method: String, deviceToken: String?, body: [UInt8]) -> Bool {
        method == "POST" && deviceToken != nil && !body.isEmpty
    }
}

/// Lint findings already computed, by everything they depend on, in a fixed table of `slots` entries indexed by a
/// cheap hash of the body: a payload's findings replace whatever its slot held before.
///
/// Why this shape: it serves every reader of a record (the file writer, queries, subscribers) and traffic that
/// interleaves a few payloads, and it must cost next to nothing when payloads never repeat (a sender with a
/// payload per push): one pass of multiply-and-rotate over the body's words, one compare, one store, no rehashing,
/// no growth. Bounded by construction; colliding payloads only miss (a hostile sender can make entries evict each
/// other, never make a lookup slower).
final class LintMemo: Sendable {
    struct Key: Equatable, Sendable {
        var body: [UInt8]
        var pushType: String?
        var priority: String?
        var topic: String?
        var payloadBytes: Int

        /// Equal when every field is, the body compared with one `memcmp`.
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.payloadBytes == rhs.payloadBytes && lhs.pushType == rhs.pushType && lhs.priority == rhs.priority
                && lhs.topic == rhs.topic && LintMemo.sameBytes(lhs.body, rhs.body)
        }
    }

    private struct Entry {
        var key: Key
        var findings: [LintFinding]
    }

    /// The entries, and beside them each entry's full hash: a payload seen for the first time (every push of a
    /// sender with a payload per push) is told apart by one integer compare, without touching the entry.
    private struct Table {
        var hashes = [UInt64](repeating: 0, count: LintMemo.slots)
        var entries = [Entry?](repeating: nil, count: LintMemo.slots)
    }

    static let shared = LintMemo()
    /// How many payloads the table holds at most (a power of two).
    static let slots = 1024

    private let table = Locked(Table())

    /// The findings for `key`, computed by `lint` the first time (and again once another payload took its slot).
    func findings(for key: Key, lint: () -> [LintFinding]) -> [LintFinding] {
        let hash = Self.hash(key)
        let slot = Int(truncatingIfNeeded: hash) & (Self.slots - 1)
        let known = table.withLock { table -> [LintFinding]? in
            guard table.hashes[slot] == hash, let entry = table.entries[slot], entry.key == key else { return nil }
            return entry.findings
        }
        if let known { return known }
        let findings = lint()
        let evicted = table.withLock { table in
            defer {
                table.hashes[slot] = hash
                table.entries[slot] = Entry(key: key, findings: findings)
            }
            return table.entries[slot]
        }
        _ = evicted   // released here, outside the lock
        return findings
    }

    /// The hash of `key`: the body's, with its size.
    static func hash(_ key: Key) -> UInt64 {
        hash(key.body) &+ UInt64(truncatingIfNeeded: key.payloadBytes)
    }

    /// The table slot of `key`.
    static func slot(for key: Key) -> Int {
        Int(truncatingIfNeeded: hash(key)) & (slots - 1)
    }

    /// A 64-bit hash of `bytes`, eight bytes at a time (not a keyed hash: the table only ever misses on a
    /// collision, so nothing depends on collisions being hard to make).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
            var hash = UInt64(truncatingIfNeeded: raw.count) &* multiplier
            var offset = 0
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash = ((hash ^ word) &* multiplier).rotatedLeft(by: 29)
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < raw.count {
                tail = tail << 8 | UInt64(raw[offset])
                offset += 1
            }
            hash = (hash ^ tail) &* multiplier
            return hash ^ (hash >> 32)
        }
    }

    /// Whether two byte arrays hold the same bytes (one `memcmp`).
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

private extension UInt64 {
    func rotatedLeft(by n: UInt64) -> UInt64 { self << n | self >> (64 - n) }
}
