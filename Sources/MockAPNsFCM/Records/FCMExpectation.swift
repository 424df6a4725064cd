import JSON
import MockAPNsRecording

/// What a test expects of the FCM records: how many match the filters of `GET /api/v1/fcm/messages`. Checked on the
/// server (`GET /api/v1/fcm/expect`, which `mockapns expect --fcm` and every kit's FCM expectation call), in the
/// words of every other expectation (``ExpectationReport``): the three closest misses first, ties newest first.
public struct FCMExpectation: Sendable {
    /// The filters; nil matches anything.
    public struct Filter: Sendable {
        public var project: String?
        /// The whole name, or its last part (the message id).
        public var name: String?
        /// The registration token sent to.
        public var token: String?
        public var topic: String?
        public var condition: String?
        public var status: Int?
        /// A dry run (`validate_only`) or not.
        public var validateOnly: Bool?

        public init(project: String? = nil, name: String? = nil, token: String? = nil, topic: String? = nil,
                    condition: String? = nil, status: Int? = nil, validateOnly: Bool? = nil) {
            self.project = project
            self.name = name
            self.token = token
            self.topic = topic
            self.condition = condition
            self.status = status
            self.validateOnly = validateOnly
        }
    }

    /// Whether a record (``FCMRecord/json``) meets every filter of `filter`: what `GET /api/v1/fcm/messages` lists.
    /// The criteria are made once, for every record the test is asked about.
    public static func matcher(_ filter: Filter) -> @Sendable (JSONValue) -> Bool {
        let criteria = FCMExpectation(filter: filter, quantity: .atLeast(1)).criteria
        return { record in criteria.allSatisfy { $0.test(record) } }
    }

    /// One thing a record must satisfy, with what a record had there instead.
    struct Criterion: Sendable {
        let label: String
        let test: @Sendable (JSONValue) -> Bool
        let found: @Sendable (JSONValue) -> String?
    }

    public static let noun = ExpectationReport.Noun("FCM record", "FCM records")

    public var filter: Filter
    public var quantity: Expectation.Quantity

    public init(filter: Filter, quantity: Expectation.Quantity) {
        self.filter = filter
        self.quantity = quantity
    }

    /// Every criterion, in the filter's order.
    var criteria: [Criterion] {
        @Sendable func quoted(_ value: JSONValue?) -> String? { value.flatMap(\.stringValue).map { "\"\($0)\"" } }
        @Sendable func target(_ record: JSONValue) -> String? { FCMRecordText.targetIfAny(record) }
        var list: [Criterion] = []
        if let project = filter.project {
            list.append(Criterion(label: "project=\(project)", test: { $0["project"]?.stringValue == project }, found: { quoted($0["project"]) }))
        }
        if let name = filter.name {
            list.append(Criterion(label: "name=\(name)", test: { record in
                guard let have = record["name"]?.stringValue else { return false }
                return have == name || have.hasSuffix("/" + name)
            }, found: { quoted($0["name"]) }))
        }
        for (kind, value) in [("token", filter.token), ("topic", filter.topic), ("condition", filter.condition)] {
            guard let value else { continue }
            list.append(Criterion(label: "\(kind)=\(value)", test: { $0[kind]?.stringValue == value }, found: target))
        }
        if let status = filter.status {
            list.append(Criterion(label: "status=\(status)", test: { $0["status"]?.integerValue == Int64(status) },
                                  found: { FCMRecordText.verdict($0) }))
        }
        if let validateOnly = filter.validateOnly {
            list.append(Criterion(label: "validate_only=\(validateOnly)", test: { ($0["validate_only"]?.boolValue ?? false) == validateOnly },
                                  found: { String($0["validate_only"]?.boolValue ?? false) }))
        }
        return list
    }

    /// What `records` (``FCMRecord/json``, oldest first) show.
    public func evaluate(_ records: [JSONValue]) -> ExpectationReport {
        let criteria = self.criteria
        let scored = records.map { record in (record: record, misses: criteria.filter { !$0.test(record) }) }
        let matched = scored.filter(\.misses.isEmpty).map(\.record)
        let closest = ExpectationReport.closest(scored.filter { !$0.misses.isEmpty }.map { ($0, $0.misses.count) })
            .map { entry in
                ExpectationReport.Miss(seq: Self.seq(entry.record), line: FCMRecordText.line(entry.record),
                                       met: criteria.count - entry.misses.count,
                                       missed: entry.misses.map { ExpectationReport.Miss.missed($0.label, found: $0.found(entry.record)) })
            }
        let labels = criteria.map(\.label)
        return ExpectationReport(
            quantity: quantity, noun: Self.noun, criteria: labels, wanted: ExpectationReport.with(labels, noun: Self.noun),
            considered: records.count, matchedCount: matched.count, matchedSeqs: matched.map(Self.seq),
            matching: matched.suffix(ExpectationTally.keptMatches).map(FCMRecordText.line), closest: closest)
    }

    private static func seq(_ record: JSONValue) -> UInt64 {
        UInt64(clamping: record["seq"]?.integerValue ?? 0)
    }
}
