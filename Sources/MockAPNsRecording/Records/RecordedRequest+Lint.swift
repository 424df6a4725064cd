import APNsModel
import DeviceSimulation
import Support
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordedRequest {
    /// The id of the finding a record of a sender that opens a connection per push carries (the pipeline's
    /// connection-churn check adds it; the recorder's statistics count it).
    public static let connectionChurnFindingID = "new-connection-per-push"

    /// The record with its lint findings filled in: the payload's (what APNs accepts but a device may mishandle),
    /// then the connection's (``connectionFinding``).
    ///
    /// Lint is a pure function of the recorded body and of the push-type, priority and topic headers, so the
    /// recorder computes it off the request path (on the file writer's thread, for queries, for live
    /// subscribers) and remembers the answer for a repeated payload: senders send the same payload to many
    /// devices, and re-parsing it for every record would cost more than the rest of the record.
    public func withLint() -> RecordedRequest {
        guard lint.isEmpty || connectionFinding != nil else { return self }
        let findings = lintFindings()
        guard !findings.isEmpty else { return self }
        var copy = self
        copy.lint = findings
        copy.connectionFinding = nil
        return copy
    }

    /// The findings `withLint()` fills in: `lint` when already set, else computed (or remembered) from the payload,
    /// then the connection's.
    package func lintFindings() -> [LintFinding] {
        lintFindings { key, lint in LintMemo.shared.findings(for: key, lint: lint) }
    }

    /// `lintFindings()` with the payload's findings looked up in, or added to, `memo` (given the key and the linting
    /// to run on a miss): the file writer passes a table of its own.
    func lintFindings(memo: (LintMemo.Key, () -> [LintFinding]) -> [LintFinding]) -> [LintFinding] {
        let payload = payloadFindings(memo: memo)
        guard let connectionFinding else { return payload }
        return payload + [connectionFinding]
    }

    /// The payload's findings (`lint` when already set).
    package func payloadFindings() -> [LintFinding] {
        payloadFindings { key, lint in LintMemo.shared.findings(for: key, lint: lint) }
    }

    private func payloadFindings(memo: (LintMemo.Key, () -> [LintFinding]) -> [LintFinding]) -> [LintFinding] {
        guard lint.isEmpty, Self.isLinted(method: method, deviceToken: deviceToken, body: body) else { return lint }
        let key = LintMemo.Key(body: body, pushType: header("apns-push-type"), priority: header("apns-priority"),
                               topic: header("apns-topic"), payloadBytes: payloadBytes)
        return memo(key) {
            guard let payload else { return [] }
            return PayloadLinter.lint(
                payload: payload,
                pushType: key.pushType.flatMap(PushType.init(rawValue:)),
                priority: key.priority.flatMap { Int($0) }.flatMap(Priority.init(rawValue:)),
                topic: key.topic,
                payloadBytes: payloadBytes)
        }
    }

    /// Whether the record's connection was flagged as opening a new connection per push (``connectionChurnFindingID``),
    /// in its own finding or among findings read back from a line.
    package var flagsConnectionChurn: Bool {
        if let connectionFinding { return connectionFinding.id == Self.connectionChurnFindingID }
        return !lint.isEmpty && lint.contains { $0.id == Self.connectionChurnFindingID }
    }

    /// Whether a record gets lint findings at all: device pushes with a body.
    static func isLinted(method: String, deviceToken: String?, body: [UInt8]) -> Bool {
        method == "POST" && deviceToken != nil && !body.isEmpty
    }
}

/// Lint findings already computed, shared by every reader of records that has no table of its own (queries,
/// subscribers): a `LintMemoTable` under a lock. The lint itself runs outside the lock.
final class LintMemo: Sendable {
    /// Everything a payload's findings depend on.
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

    static let shared = LintMemo()

    private let table = Locked(LintMemoTable())

    /// The findings for `key`, computed by `lint` the first time (and again once another payload took its slot).
    func findings(for key: Key, lint: () -> [LintFinding]) -> [LintFinding] {
        let hash = Self.hash(key)
        if let known = table.withLock({ $0.findings(for: key, hash: hash) }) { return known }
        let findings = lint()
        let evicted = table.withLock { $0.remember(findings, for: key, hash: hash) }
        _ = evicted   // released here, outside the lock
        return findings
    }

    /// The hash of `key`: the body's, with its size.
    static func hash(_ key: Key) -> UInt64 {
        hash(key.body) &+ UInt64(truncatingIfNeeded: key.payloadBytes)
    }

    /// The table slot of `key`.
    static func slot(for key: Key) -> Int {
        LintMemoTable.slot(for: hash(key))
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
