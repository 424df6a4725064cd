import APNsModel
import MockAPNs

/// Records shaped like the pipeline's, for feeding a recorder directly.
enum RecordFixtures {
    /// A record of a push to `token` with the given headers, payload and answer.
    static func make(
        token: String = "aabbccddeeff00112233445566778899",
        topic: String = "com.example.app",
        pushType: String = "alert",
        status: Int = 200,
        reason: String? = nil,
        title: String = "Shipped",
        apnsID: String = "0f1e2d3c-0000-4000-8000-000000000001",
        durationMicros: Int64 = 800
    ) -> RecordedRequest {
        let payload = JSONValue.object([
            .init("aps", .object([.init("alert", .object([.init("title", .string(title)), .init("body", .string("Your order"))]))])),
        ])
        let body = Array(payload.jsonText().utf8)
        return RecordedRequest(
            seq: 0, receivedAtMillis: 1_795_442_400_123, connectionID: 7, streamID: 1, remote: "127.0.0.1:50000",
            method: "POST", path: "/3/device/\(token)", deviceToken: token,
            headers: [HeaderField(name: "apns-topic", value: topic), HeaderField(name: "apns-push-type", value: pushType)],
            body: body, payload: payload, payloadBytes: body.count,
            auth: .init(kind: "token", teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_795_442_000),
            response: .init(status: status, reason: reason, apnsID: apnsID),
            faults: [], lint: [], durationMicros: durationMicros
        )
    }
}
