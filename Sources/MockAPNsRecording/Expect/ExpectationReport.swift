import JSON

/// What an expectation found, and the one wording every checker gives it: `mockapns expect` (APNs records and
/// `--fcm`), `GET /api/v1/expect` (and through it every language kit) and the Swift kit's assertions. Each builds
/// one of these from its own records; the verdict line, the lists and the JSON are written here only.
///
/// ```text
/// expect: FAILED — wanted at least 1 record with topic=com.example; 0 matched (of 3 records in rec.jsonl).
/// Closest records:
///   #3  12:00:01.250  200  alert push to 1f2e…  meets 0 of 1; missed: topic=com.example (found "com.other")
/// ```
public struct ExpectationReport: Sendable {
    /// What the records are called: `record`/`records`, `FCM record`/`FCM records`, `notification`/`notifications`.
    public struct Noun: Sendable {
        public var singular: String
        public var plural: String

        public init(_ singular: String, _ plural: String) {
            self.singular = singular
            self.plural = plural
        }

        /// A recording's records.
        public static let record = Noun("record", "records")

        /// `1 record`, `3 records`.
        public func counted(_ n: Int) -> String { "\(n) \(n == 1 ? singular : plural)" }
    }

    /// A record that met some criteria but not all.
    public struct Miss: Sendable {
        /// Its sequence number.
        public var seq: UInt64
        /// The record in one line (its number first).
        public var line: String
        /// How many criteria it met.
        public var met: Int
        /// Each criterion it missed, with what it had: `topic=x (found "y")`, `topic=x (absent)`.
        public var missed: [String]

        public init(seq: UInt64, line: String, met: Int, missed: [String]) {
            self.seq = seq
            self.line = line
            self.met = met
            self.missed = missed
        }

        /// `label (found value)`, or `label (absent)` when the record had nothing there.
        public static func missed(_ label: String, found: String?) -> String {
            "\(label) (\(found.map { "found \($0)" } ?? "absent"))"
        }
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

        /// `message` (a report's, written with ``plain``) with its verdict marked.
        public func mark(_ message: String) -> String {
            for (verdict, wrap) in [("expect: ok", passed), ("expect: FAILED", failed)] where message.hasPrefix(verdict) {
                return wrap(verdict) + message.dropFirst(verdict.count)
            }
            return message
        }
    }

    /// How many matching records were asked for.
    public var quantity: Expectation.Quantity
    /// What the records are called.
    public var noun: Noun
    /// The criteria, each as a label (`topic=com.example`, `alert title "Shipped"`).
    public var criteria: [String]
    /// What a matching record has, after the quantity: `with topic=com.example`, `with any record`.
    public var wanted: String
    /// Records looked at.
    public var considered: Int
    /// How many met every criterion.
    public var matchedCount: Int
    /// Their sequence numbers, in recording order.
    public var matchedSeqs: [UInt64]
    /// The last few of them, one line each, for a failure.
    public var matching: [String]
    /// The closest misses, best first.
    public var closest: [Miss]

    public init(quantity: Expectation.Quantity, noun: Noun, criteria: [String], wanted: String, considered: Int,
                matchedCount: Int, matchedSeqs: [UInt64], matching: [String], closest: [Miss]) {
        self.quantity = quantity
        self.noun = noun
        self.criteria = criteria
        self.wanted = wanted
        self.considered = considered
        self.matchedCount = matchedCount
        self.matchedSeqs = matchedSeqs
        self.matching = matching
        self.closest = closest
    }

    /// `with A, B`, or `with any <noun>` when there are no criteria.
    public static func with(_ criteria: [String], noun: Noun) -> String {
        "with " + (criteria.isEmpty ? "any \(noun.singular)" : criteria.joined(separator: ", "))
    }

    /// The misses a report lists, from all of them in recording order with how many criteria each missed: the
    /// ``ExpectationTally/keptMisses`` closest, fewest missed first, ties newest first (as the tally keeps them).
    public static func closest<Record>(_ misses: [(record: Record, missed: Int)]) -> [Record] {
        misses.enumerated()
            .sorted { $0.element.missed != $1.element.missed ? $0.element.missed < $1.element.missed : $0.offset > $1.offset }
            .prefix(ExpectationTally.keptMisses)
            .map(\.element.record)
    }

    /// Whether the quantity holds.
    public var met: Bool { quantity.accepts(matchedCount) }

    /// The report for people, `source` naming where the records were read: the verdict, and for a failure the
    /// matching and closest records.
    public func message(source: String, marks: Marks = .plain) -> String {
        let count = "\(matchedCount) matched (of \(noun.counted(considered)) in \(source))"
        let asked = "\(quantity.phrase(noun)) \(wanted)"
        if met { return "\(marks.passed("expect: ok")) — \(count); wanted \(asked).\n" }
        var lines = ["\(marks.failed("expect: FAILED")) — wanted \(asked); \(count)."]
        if matchedCount > 0 {
            lines.append("Matching \(noun.plural):")
            lines += matching.map { "  " + $0 }
        }
        if matchedCount < quantity.minimum {
            if closest.isEmpty {
                lines.append(considered == 0 ? "No \(noun.plural) arrived at all." : "No other \(noun.plural) to compare with.")
            } else {
                lines.append("Closest \(noun.plural):")
                for miss in closest {
                    lines.append("  \(miss.line)  meets \(miss.met) of \(criteria.count); missed: \(miss.missed.joined(separator: "; "))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON, the same from `mockapns expect --json` and `GET /api/v1/expect`.
    public func json(source: String) -> JSONValue {
        .object([
            .init("met", .bool(met)),
            .init("matching", .integer(Int64(matchedCount))),
            .init("expected", .string(quantity.phrase(noun))),
            .init("criteria", .array(criteria.map { .string($0) })),
            .init("considered", .integer(Int64(considered))),
            .init("matched_seqs", .array(matchedSeqs.map { .integer(Int64($0)) })),
            .init("closest", .array(closest.map { miss in
                .object([
                    .init("seq", .integer(Int64(miss.seq))),
                    .init("met", .integer(Int64(miss.met))),
                    .init("missed", .array(miss.missed.map { .string($0) })),
                ])
            })),
            .init("message", .string(message(source: source))),
        ])
    }
}
