import JSON

/// Reading and writing the JSON body of an APNs error response: `{"reason":"BadTopic"}`, plus
/// `"timestamp"` (milliseconds since 1970) on a 410.
extension APNsReason {
    /// The error response body APNs sends for this reason. `timestampMilliseconds` is for `410` answers: when
    /// APNs last confirmed the token was no longer valid for the topic.
    public func responseBody(timestampMilliseconds: Int64? = nil) -> String {
        var members = [JSONValue.JSONMember("reason", .string(rawValue))]
        if let timestampMilliseconds { members.append(.init("timestamp", .integer(timestampMilliseconds))) }
        return JSONValue.object(members).jsonText()
    }

    /// The reason named by a response's `reason` string. Also accepts `Service Unavailable`, the spelling in
    /// Apple's broadcast error table. `nil` for strings APNs is not known to send.
    public init?(responseReason text: String) {
        if text == "Service Unavailable" {
            self = .serviceUnavailable
            return
        }
        self.init(rawValue: text)
    }

    /// Decodes an error response body into its reason and optional `timestamp` (milliseconds); `nil` when the
    /// body is not a JSON object with a known `reason` string.
    public static func decodeResponseBody(_ body: some Collection<UInt8>)
        -> (reason: APNsReason, timestampMilliseconds: Int64?)?
    {
        guard let value = try? JSONValue.parse(body), let text = value["reason"]?.stringValue,
              let reason = APNsReason(responseReason: text) else { return nil }
        let timestamp = value["timestamp"]?.integerValue ?? value["timestamp"]?.numberValue.flatMap { abs($0) < 9e18 ? Int64($0) : nil }
        return (reason, timestamp)
    }
}
