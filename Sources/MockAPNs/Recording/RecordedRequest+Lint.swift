import APNsModel
import Synchronized

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

/// Lint findings already computed, by everything they depend on. Bounded: it starts over when full.
final class LintMemo: Sendable {
    struct Key: Hashable, Sendable {
        var body: [UInt8]
        var pushType: String?
        var priority: String?
        var topic: String?
        var payloadBytes: Int

        /// Hashes the body as one block of bytes (the synthesised hash would feed it to the hasher byte by byte).
        func hash(into hasher: inout Hasher) {
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(pushType)
            hasher.combine(priority)
            hasher.combine(topic)
            hasher.combine(payloadBytes)
        }
    }

    static let shared = LintMemo()
    /// The most distinct payloads remembered.
    static let limit = 1024

    private let entries = Locked<[Key: [LintFinding]]>([:])

    /// The findings for `key`, computed by `lint` the first time.
    func findings(for key: Key, lint: () -> [LintFinding]) -> [LintFinding] {
        if let known = entries.withLock({ $0[key] }) { return known }
        let findings = lint()
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = findings
        }
        return findings
    }
}
