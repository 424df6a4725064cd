import APNsModel
import Foundation
import MockAPNs
import TestSupport

/// Records of pushes as the pipeline would build them, for the store's tests.
enum StoreRecords {
    /// A push to `token` on `topic` answered `status` (`reason`), with `apnsID` in its answer.
    static func push(token: String, topic: String = "com.example.app", status: Int = 200, reason: String? = nil,
                     apnsID: String = UUID().uuidString, receivedAtMillis: Int64 = Int64(Date().timeIntervalSince1970 * 1000),
                     title: String = "Shipped") -> RecordedRequest {
        .sample(receivedAtMillis: receivedAtMillis, token: token, topic: topic, title: title, status: status, reason: reason,
                apnsID: apnsID, durationMicros: 100)
    }
}
