import APNsModel
import APNsTesting
import MockAPNs
import TestSupport

/// Builds `ReceivedNotification`s without a server, for the evaluator's message tests.
enum RecordMaker {
    static func notification(
        seq: UInt64 = 1, token: String = Tokens.first, topic: String? = "com.example.shop", pushType: String? = "alert",
        priority: String? = nil, collapseID: String? = nil, payload: String = Payloads.shipped,
        status: Int = 200, reason: String? = nil
    ) -> ReceivedNotification {
        var extra: [HeaderField] = []
        if let priority { extra.append(HeaderField("apns-priority", priority)) }
        if let collapseID { extra.append(HeaderField("apns-collapse-id", collapseID)) }
        let record = RecordedRequest.sample(
            seq: seq, receivedAtMillis: 0, remote: "127.0.0.1:1", token: token, topic: topic, pushType: pushType,
            extraHeaders: extra, body: Array(payload.utf8), auth: .init(kind: "token"), status: status, reason: reason,
            apnsID: status == 0 ? nil : "id-\(seq)", faults: status == 0 ? ["stall"] : [], durationMicros: 0)
        return ReceivedNotification(record: record)
    }
}
