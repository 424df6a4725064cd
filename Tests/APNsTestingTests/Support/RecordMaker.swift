import APNsModel
import APNsTesting
import MockAPNs

/// Builds `ReceivedNotification`s without a server, for the evaluator's message tests.
enum RecordMaker {
    static func notification(
        seq: UInt64 = 1, token: String = Tokens.first, topic: String? = "com.example.shop", pushType: String? = "alert",
        priority: String? = nil, collapseID: String? = nil, payload: String = Payloads.shipped,
        status: Int = 200, reason: String? = nil
    ) -> ReceivedNotification {
        var headers: [HeaderField] = []
        if let topic { headers.append(HeaderField("apns-topic", topic)) }
        if let pushType { headers.append(HeaderField("apns-push-type", pushType)) }
        if let priority { headers.append(HeaderField("apns-priority", priority)) }
        if let collapseID { headers.append(HeaderField("apns-collapse-id", collapseID)) }
        let body = Array(payload.utf8)
        let record = RecordedRequest(
            seq: seq, receivedAtMillis: 0, connectionID: 1, streamID: 1, remote: "127.0.0.1:1", method: "POST",
            path: "/3/device/\(token)", deviceToken: token, headers: headers, body: body,
            payload: try? JSONValue.parse(body), payloadBytes: body.count, auth: .init(kind: "token"),
            response: .init(status: status, reason: reason, apnsID: status == 0 ? nil : "id-\(seq)"),
            faults: status == 0 ? ["stall"] : [], lint: [], durationMicros: 0)
        return ReceivedNotification(record: record)
    }
}
