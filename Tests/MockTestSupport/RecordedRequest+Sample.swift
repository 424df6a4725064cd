import APNsModel
import DeviceSimulation
import MockAPNs

extension RecordedRequest {
    /// A record of a device push shaped as the pipeline builds one, every field defaulted: the one way the test
    /// targets make records without a server (each suite's own helper passes its defaults in here).
    ///
    /// The payload is `{"aps":{"alert":{"title":…[,"body":…]}[,"badge":…]}}` unless `payload` is given; the body is
    /// the payload's JSON text (or `body`, when given, for a payload that is not JSON).
    public static func sample(
        seq: UInt64 = 0, receivedAtMillis: Int64 = 1_795_442_400_000, connectionID: UInt64 = 1, streamID: Int32 = 1,
        remote: String = "127.0.0.1:50000", token: String = "aabbccddeeff00112233445566778899",
        topic: String? = "com.example.app", pushType: String? = "alert", extraHeaders: [HeaderField] = [],
        title: String = "Shipped", alertBody: String? = nil, badge: Int64? = nil, payload: JSONValue? = nil,
        body: [UInt8]? = nil, auth: Authentication = Authentication(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001"),
        status: Int = 200, reason: String? = nil, apnsID: String? = "0f1e2d3c-0000-4000-8000-000000000001",
        apnsUniqueID: String? = nil, timestamp: Int64? = nil, faults: [String] = [], lint: [LintFinding] = [],
        durationMicros: Int64 = 800
    ) -> RecordedRequest {
        var headers: [HeaderField] = []
        if let topic { headers.append(HeaderField(name: "apns-topic", value: topic)) }
        if let pushType { headers.append(HeaderField(name: "apns-push-type", value: pushType)) }
        headers += extraHeaders
        var alert: [JSONValue.JSONMember] = [.init("title", .string(title))]
        if let alertBody { alert.append(.init("body", .string(alertBody))) }
        var aps: [JSONValue.JSONMember] = [.init("alert", .object(alert))]
        if let badge { aps.append(.init("badge", .integer(badge))) }
        let value = payload ?? .object([.init("aps", .object(aps))])
        let bytes = body ?? Array(value.jsonText().utf8)
        return RecordedRequest(
            seq: seq, receivedAtMillis: receivedAtMillis, connectionID: connectionID, streamID: streamID, remote: remote,
            method: "POST", path: "/3/device/\(token)", deviceToken: token, headers: headers, body: bytes,
            payload: body == nil ? value : (try? JSONValue.parse(bytes)), payloadBytes: bytes.count, auth: auth,
            response: Response(status: status, reason: reason, apnsID: apnsID, apnsUniqueID: apnsUniqueID,
                               timestamp: timestamp),
            faults: faults, lint: lint, durationMicros: durationMicros)
    }
}
