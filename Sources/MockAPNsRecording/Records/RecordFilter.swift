/// Which records a query wants: the filters of `GET /api/v1/notifications`, `mockapns list` and `expect`.
/// Every set field must match; unset fields match everything.
public struct RecordFilter: Sendable, Equatable {
    /// The device token in the path (case-insensitive).
    public var token: String?
    /// The `apns-topic` header.
    public var topic: String?
    /// The `apns-push-type` header.
    public var pushType: String?
    /// The response status.
    public var status: Int?
    /// The response reason.
    public var reason: String?
    /// Only records with `seq` greater than this.
    public var since: UInt64?
    /// At most this many records, the newest ones.
    public var limit: Int?

    /// Makes a filter; with no arguments it matches every record.
    public init(token: String? = nil, topic: String? = nil, pushType: String? = nil, status: Int? = nil,
                reason: String? = nil, since: UInt64? = nil, limit: Int? = nil) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.status = status
        self.reason = reason
        self.since = since
        self.limit = limit
    }

    /// Whether `record` passes every set filter (`limit` is applied by the caller over a sequence).
    public func matches(_ record: RecordedRequest) -> Bool {
        if let since, record.seq <= since { return false }
        if let status, record.response.status != status { return false }
        if let reason, record.response.reason != reason { return false }
        if let token, record.deviceToken?.lowercased() != token.lowercased() { return false }
        if let topic, record.header("apns-topic") != topic { return false }
        if let pushType, record.header("apns-push-type") != pushType { return false }
        return true
    }

    /// Applies the filter and the limit to records in recording order.
    public func apply(to records: some Sequence<RecordedRequest>) -> [RecordedRequest] {
        let matching = records.filter(matches)
        guard let limit, limit >= 0, matching.count > limit else { return matching }
        return Array(matching.suffix(limit))
    }
}
