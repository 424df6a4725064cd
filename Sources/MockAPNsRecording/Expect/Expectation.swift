import APNsModel

/// What a test expects of the recording: how many records match the filters and payload conditions. `mockapns
/// expect`, `GET /api/v1/expect` and the kits check it here, so they say the same thing in the same words.
public struct Expectation: Sendable {
    /// How many matching records pass.
    public enum Quantity: Equatable, Sendable {
        /// N or more.
        case atLeast(Int)
        /// Exactly N (`--none` is exactly 0).
        case exactly(Int)

        /// Whether `count` satisfies it.
        public func accepts(_ count: Int) -> Bool {
            switch self {
            case .atLeast(let n): return count >= n
            case .exactly(let n): return count == n
            }
        }

        /// `at least 1 record` / `exactly 2 records` / `no records`.
        public var phrase: String {
            switch self {
            case .atLeast(let n): return "at least \(n) \(n == 1 ? "record" : "records")"
            case .exactly(0): return "no records"
            case .exactly(let n): return "exactly \(n) \(n == 1 ? "record" : "records")"
            }
        }
    }

    /// One thing a record must satisfy, with a way to say what it had instead.
    public struct Criterion: Sendable {
        /// `topic=com.example` or `aps.alert.title=Shipped`.
        public let label: String
        /// Whether the record meets it.
        public let test: @Sendable (RecordedRequest) -> Bool
        /// What the record had, for a miss; nil when it had nothing there.
        public let found: @Sendable (RecordedRequest) -> String?
    }

    /// The record filters (`since` only narrows which records count; the rest are criteria).
    public let filter: RecordFilter
    /// Payload conditions (`--where`, `where=`).
    public let conditions: [PayloadCondition]
    /// The quantity asked for.
    public let quantity: Quantity

    /// An expectation of `quantity` records meeting `filter` and `conditions`.
    public init(filter: RecordFilter, conditions: [PayloadCondition], quantity: Quantity) {
        self.filter = filter
        self.conditions = conditions
        self.quantity = quantity
    }

    /// Every criterion, filters first.
    public var criteria: [Criterion] {
        var list: [Criterion] = []
        @Sendable func quoted(_ value: String?) -> String? { value.map { "\"\($0)\"" } }
        if let token = filter.token {
            // Case-insensitive, as RecordFilter and APNs read a token.
            let wanted = token.lowercased()
            list.append(Criterion(label: "token=\(token)", test: { $0.deviceToken?.lowercased() == wanted },
                                  found: { quoted($0.deviceToken) }))
        }
        if let topic = filter.topic {
            list.append(Criterion(label: "topic=\(topic)", test: { $0.header("apns-topic") == topic }, found: { quoted($0.header("apns-topic")) }))
        }
        if let pushType = filter.pushType {
            list.append(Criterion(label: "push-type=\(pushType)", test: { $0.header("apns-push-type") == pushType }, found: { quoted($0.header("apns-push-type")) }))
        }
        if let status = filter.status {
            list.append(Criterion(label: "status=\(status)", test: { $0.response.status == status }, found: { String($0.response.status) }))
        }
        if let reason = filter.reason {
            list.append(Criterion(label: "reason=\(reason)", test: { $0.response.reason == reason }, found: { quoted($0.response.reason) }))
        }
        for condition in conditions {
            list.append(Criterion(label: condition.description, test: { condition.matches($0.payload) }, found: { condition.found(in: $0.payload) }))
        }
        return list
    }

    /// What the records show.
    public func evaluate(_ records: [RecordedRequest]) -> ExpectationResult {
        var tally = ExpectationTally(self)
        for record in records { tally.add(record) }
        return tally.result()
    }
}

/// The outcome of an ``Expectation``.
public struct ExpectationResult: Sendable {
    /// A record that met some but not all criteria.
    public struct NearMiss: Sendable {
        /// The record.
        public let record: RecordedRequest
        /// How many criteria it met.
        public let met: Int
        /// The criteria it missed, each with what it had.
        public let misses: [String]
    }

    /// What was checked.
    public let expectation: Expectation
    /// Records looked at (after `--since`).
    public let considered: Int
    /// How many records met every criterion.
    public let matchedCount: Int
    /// Their sequence numbers, in recording order.
    public let matchedSeqs: [UInt64]
    /// The last few of them (``ExpectationTally/keptMatches``), for the report.
    public let lastMatched: [RecordedRequest]
    /// Whether the quantity was satisfied.
    public let passed: Bool
    /// The records that came closest, best first.
    public let closest: [NearMiss]
    /// How many criteria there were.
    public let criteriaCount: Int

    /// The criteria joined for messages.
    public var wanted: String {
        let labels = expectation.criteria.map(\.label)
        return labels.isEmpty ? "any record" : labels.joined(separator: ", ")
    }

    /// How a report marks its verdict: the CLI colours it on a terminal.
    public struct Marks: Sendable {
        /// Wraps `expect: ok`.
        public var passed: @Sendable (String) -> String
        /// Wraps `expect: FAILED`.
        public var failed: @Sendable (String) -> String
        /// Plain text.
        public static let plain = Marks(passed: { $0 }, failed: { $0 })

        /// Marks wrapping each verdict.
        public init(passed: @escaping @Sendable (String) -> String, failed: @escaping @Sendable (String) -> String) {
            self.passed = passed
            self.failed = failed
        }
    }

    /// The report for people: whether it holds, and if not the matching and closest records, `source` naming where
    /// the records were read.
    public func report(source: String, marks: Marks = .plain) -> String {
        var lines: [String] = []
        let count = "\(matchedCount) matched (of \(considered) \(considered == 1 ? "record" : "records") in \(source))"
        if passed {
            lines.append("\(marks.passed("expect: ok")) — \(count); wanted \(expectation.quantity.phrase) with \(wanted).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("\(marks.failed("expect: FAILED")) — wanted \(expectation.quantity.phrase) with \(wanted); \(count).")
        if matchedCount > 0 {
            lines.append("Matching records:")
            for record in lastMatched {
                lines.append("  #\(record.seq)  \(RecordedRequest.clockText(record.receivedAtMillis))  \(record.verdictText)  \(record.summaryText)")
            }
        }
        if matchedCount < minimumWanted {
            if closest.isEmpty {
                lines.append(considered == 0 ? "No records arrived at all." : "No other records to compare with.")
            } else {
                lines.append("Closest records:")
                for miss in closest {
                    lines.append("  #\(miss.record.seq)  \(RecordedRequest.clockText(miss.record.receivedAtMillis))  \(miss.record.verdictText)  meets \(miss.met) of \(criteriaCount); missed: \(miss.misses.joined(separator: "; "))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var minimumWanted: Int {
        switch expectation.quantity {
        case .atLeast(let n), .exactly(let n): return n
        }
    }

    /// The result as JSON (`--json`; `GET /api/v1/expect` adds the report as `message`).
    public func json() -> JSONValue {
        .object([
            .init("passed", .bool(passed)),
            .init("expected", .string(expectation.quantity.phrase)),
            .init("criteria", .array(expectation.criteria.map { .string($0.label) })),
            .init("considered", .integer(Int64(considered))),
            .init("matched", .integer(Int64(matchedCount))),
            .init("matched_seqs", .array(matchedSeqs.map { .integer(Int64($0)) })),
            .init("closest", .array(closest.map { miss in
                .object([
                    .init("seq", .integer(Int64(miss.record.seq))),
                    .init("met", .integer(Int64(miss.met))),
                    .init("missed", .array(miss.misses.map { .string($0) })),
                ])
            })),
        ])
    }
}
