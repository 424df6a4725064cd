import APNsModel

/// The parts of a record a search looks at, read once per record (the payload is parsed once, not per term).
struct SearchableRecord {
    let topic: String?
    let token: String?
    let pushType: String?
    let status: Int
    let reason: String?
    let title: String?
    let body: String?
    private let payload: JSONValue?
    private let hasLint: Bool
    private let hasFault: Bool
    private let relayed: Bool
    private let disagreed: Bool

    init(_ record: RecordedRequest) {
        topic = record.header("apns-topic")
        token = record.deviceToken
        pushType = record.header("apns-push-type")
        status = record.response.status
        reason = record.response.reason
        let payload = record.payload
        self.payload = payload
        let alert = payload?["aps"]?["alert"]
        title = alert?.stringValue ?? alert?["title"]?.stringValue
        body = alert?["body"]?.stringValue
        hasLint = !record.lint.isEmpty || record.connectionFinding != nil
        hasFault = !record.faults.isEmpty
        relayed = record.relay.map { $0.skipped == nil } ?? false
        disagreed = record.relay.map { RelayVerdict.disagreement(mock: record.response, upstream: $0) != nil } ?? false
    }

    /// `has:` — a payload key at the top level or in `aps` (exact case), or the `lint` / `fault` flags, `relay` (sent
    /// upstream by `serve --relay`) and `disagreement` (the upstream answered otherwise than the mock).
    func has(_ key: String) -> Bool {
        if key == "lint" { return hasLint }
        if key == "fault" || key == "faults" { return hasFault }
        if key == "relay" { return relayed }
        if key == "disagreement" { return disagreed }
        return payload?[key] != nil || payload?["aps"]?[key] != nil
    }
}
