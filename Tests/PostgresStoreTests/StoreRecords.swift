import APNsModel
import Foundation
import MockAPNs

/// Records of pushes as the pipeline would build them, for the store's tests.
enum StoreRecords {
    /// A push to `token` on `topic` answered `status` (`reason`), with `apnsID` in its answer.
    static func push(token: String, topic: String = "com.example.app", status: Int = 200, reason: String? = nil,
                     apnsID: String = UUID().uuidString, receivedAtMillis: Int64 = Int64(Date().timeIntervalSince1970 * 1000),
                     title: String = "Shipped") -> RecordedRequest {
        let payload = JSONValue.object([.init("aps", .object([.init("alert", .object([.init("title", .string(title))]))]))])
        let body = Array(payload.jsonText().utf8)
        return RecordedRequest(
            seq: 0, receivedAtMillis: receivedAtMillis, connectionID: 1, streamID: 1, remote: "127.0.0.1:50000",
            method: "POST", path: "/3/device/\(token)", deviceToken: token,
            headers: [HeaderField(name: "apns-topic", value: topic), HeaderField(name: "apns-push-type", value: "alert")],
            body: body, payload: payload, payloadBytes: body.count,
            auth: RecordedRequest.Authentication(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001"),
            response: RecordedRequest.Response(status: status, reason: reason, apnsID: apnsID), faults: [], lint: [],
            durationMicros: 100)
    }
}
