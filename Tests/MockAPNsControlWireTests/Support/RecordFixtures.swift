import APNsModel
import MockAPNs
import TestSupport

/// Records shaped like the pipeline's, for feeding a recorder directly (`RecordedRequest.sample` with this suite's defaults).
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
        .sample(
            receivedAtMillis: 1_795_442_400_123, connectionID: 7, token: token, topic: topic, pushType: pushType,
            title: title, alertBody: "Your order", auth: .init(kind: "token", teamID: "TEAM123456", keyID: "KEY1234567", issuedAt: 1_795_442_000),
            status: status, reason: reason, apnsID: apnsID, durationMicros: durationMicros)
    }
}
