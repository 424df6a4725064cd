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

        /// `at least 1 record` / `exactly 2 records` / `no records`, in `noun`.
        public func phrase(_ noun: ExpectationReport.Noun) -> String {
            switch self {
            case .atLeast(let n): return "at least " + noun.counted(n)
            case .exactly(0): return "no \(noun.plural)"
            case .exactly(let n): return "exactly " + noun.counted(n)
            }
        }

        /// The fewest matching records that can satisfy it.
        public var minimum: Int {
            switch self {
            case .atLeast(let n), .exactly(let n): return n
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
    public let met: Bool
    /// The records that came closest, best first.
    public let closest: [NearMiss]
    /// How many criteria there were.
    public let criteriaCount: Int

    /// The result in the words every checker uses.
    public var report: ExpectationReport {
        let labels = expectation.criteria.map(\.label)
        return ExpectationReport(
            quantity: expectation.quantity, noun: .record, criteria: labels, wanted: ExpectationReport.with(labels, noun: .record),
            considered: considered, matchedCount: matchedCount, matchedSeqs: matchedSeqs,
            matching: lastMatched.map(Self.line),
            closest: closest.map { miss in
                ExpectationReport.Miss(seq: miss.record.seq, line: Self.verdictLine(miss.record), met: miss.met, missed: miss.misses)
            })
    }

    /// `#seq  clock  verdict  summary`.
    private static func line(_ record: RecordedRequest) -> String {
        verdictLine(record) + "  " + record.summaryText
    }

    /// `#seq  clock  verdict`: a miss's line, which its missed criteria follow.
    private static func verdictLine(_ record: RecordedRequest) -> String {
        "#\(record.seq)  \(RecordedRequest.clockText(record.receivedAtMillis))  \(record.verdictText)"
    }
}
