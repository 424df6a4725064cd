import APNsModel
import MockAPNs

/// What `mockapns expect` checks: how many records match the filters and payload conditions.
struct Expectation {
    /// How many matching records pass.
    enum Quantity: Equatable {
        /// N or more.
        case atLeast(Int)
        /// Exactly N (`--none` is exactly 0).
        case exactly(Int)

        /// Whether `count` satisfies it.
        func accepts(_ count: Int) -> Bool {
            switch self {
            case .atLeast(let n): return count >= n
            case .exactly(let n): return count == n
            }
        }

        /// `at least 1 record` / `exactly 2 records` / `no records`.
        var phrase: String {
            switch self {
            case .atLeast(let n): return "at least \(n) \(n == 1 ? "record" : "records")"
            case .exactly(0): return "no records"
            case .exactly(let n): return "exactly \(n) \(n == 1 ? "record" : "records")"
            }
        }
    }

    /// One thing a record must satisfy, with a way to say what it had instead.
    struct Criterion {
        /// `topic=com.example` or `aps.alert.title=Shipped`.
        let label: String
        /// Whether the record meets it.
        let test: (RecordedRequest) -> Bool
        /// What the record had, for a miss; nil when it had nothing there.
        let found: (RecordedRequest) -> String?
    }

    /// The record filters (`since` only narrows which records count; the rest are criteria).
    let filter: RecordFilter
    /// `--where` conditions.
    let conditions: [PayloadCondition]
    /// The quantity asked for.
    let quantity: Quantity

    /// Every criterion, filters first.
    var criteria: [Criterion] {
        var list: [Criterion] = []
        func quoted(_ value: String?) -> String? { value.map { "\"\($0)\"" } }
        if let token = filter.token {
            list.append(Criterion(label: "token=\(token)", test: { $0.deviceToken == token }, found: { quoted($0.deviceToken) }))
        }
        if let topic = filter.topic {
            list.append(Criterion(label: "topic=\(topic)", test: { RecordText.header($0, "apns-topic") == topic }, found: { quoted(RecordText.header($0, "apns-topic")) }))
        }
        if let pushType = filter.pushType {
            list.append(Criterion(label: "push-type=\(pushType)", test: { RecordText.header($0, "apns-push-type") == pushType }, found: { quoted(RecordText.header($0, "apns-push-type")) }))
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
    func evaluate(_ records: [RecordedRequest]) -> ExpectationResult {
        var tally = ExpectationTally(self)
        for record in records { tally.add(record) }
        return tally.result()
    }
}

/// The outcome of an ``Expectation``.
struct ExpectationResult {
    /// A record that met some but not all criteria.
    struct NearMiss {
        /// The record.
        let record: RecordedRequest
        /// How many criteria it met.
        let met: Int
        /// The criteria it missed, each with what it had.
        let misses: [String]
    }

    /// What was checked.
    let expectation: Expectation
    /// Records looked at (after `--since`).
    let considered: Int
    /// How many records met every criterion.
    let matchedCount: Int
    /// Their sequence numbers, in recording order.
    let matchedSeqs: [UInt64]
    /// The last few of them (``ExpectationTally/keptMatches``), for the report.
    let lastMatched: [RecordedRequest]
    /// Whether the quantity was satisfied.
    let passed: Bool
    /// The records that came closest, best first.
    let closest: [NearMiss]
    /// How many criteria there were.
    let criteriaCount: Int

    /// The criteria joined for messages.
    var wanted: String {
        let labels = expectation.criteria.map(\.label)
        return labels.isEmpty ? "any record" : labels.joined(separator: ", ")
    }

    /// The report for people.
    func report(source: String, style: TerminalStyle) -> String {
        var lines: [String] = []
        let count = "\(matchedCount) matched (of \(considered) \(considered == 1 ? "record" : "records") in \(source))"
        if passed {
            lines.append("\(style.green("expect: ok")) — \(count); wanted \(expectation.quantity.phrase) with \(wanted).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("\(style.red("expect: FAILED")) — wanted \(expectation.quantity.phrase) with \(wanted); \(count).")
        if matchedCount > 0 {
            lines.append("Matching records:")
            for record in lastMatched {
                lines.append("  #\(record.seq)  \(RecordText.clock(record.receivedAtMillis))  \(RecordText.verdict(record))  \(RecordText.summary(record))")
            }
        }
        if matchedCount < minimumWanted {
            if closest.isEmpty {
                lines.append(considered == 0 ? "No records arrived at all." : "No other records to compare with.")
            } else {
                lines.append("Closest records:")
                for miss in closest {
                    lines.append("  #\(miss.record.seq)  \(RecordText.clock(miss.record.receivedAtMillis))  \(RecordText.verdict(miss.record))  meets \(miss.met) of \(criteriaCount); missed: \(miss.misses.joined(separator: "; "))")
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

    /// The result as JSON for `--json`.
    func json() -> JSONValue {
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
