import APNsModel
import Foundation

/// A typed device push. Build one with a static builder per push type (`.alert(…)`, `.background(…)`,
/// `.voip(…)`, `.liveActivity(…)`, `.widgets(…)`…): each appends the topic suffix APNs expects for its type
/// (`PushType.topicSuffix`) to the bundle ID, sets `apns-push-type`, and only lets you choose the priority and
/// expiration APNs allows for that type (background is always 5; widgets send neither).
///
/// ```swift
/// var push = APNsNotification.alert(bundleID: "com.example.app", title: "Hi", body: "Hello")
/// push.collapseID = "greeting"
/// try await client.send(push, deviceToken: token)
/// ```
public struct APNsNotification: APNsNotificationRequest, Hashable {
    /// `apns-push-type`.
    public let pushType: PushType
    /// `apns-topic`: the bundle ID with the push type's suffix (for MDM, the certificate's UID).
    public let topic: String
    /// The JSON body.
    public let payload: JSONValue
    /// `apns-priority`, or nil to send none (APNs then assumes 10).
    public let priority: Priority?
    /// `apns-expiration` in seconds since 1970 (0 = try once, do not store), or nil to send none.
    public let expiration: Int64?
    /// `apns-collapse-id` (at most 64 bytes): pushes with the same ID replace each other on the device.
    public var collapseID: String?
    /// `apns-id`; nil lets the client pick a random UUID (kept across retries).
    public var apnsID: UUID?

    /// Used by the builders, which enforce the per-type header rules.
    init(pushType: PushType, bundleID: String, payload: JSONValue, priority: Priority?, expiration: Int64?) {
        self.pushType = pushType
        self.topic = Self.topic(bundleID: bundleID, pushType: pushType)
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
    }

    /// `bundleID` plus `pushType`'s suffix, unless it already ends with it.
    public static func topic(bundleID: String, pushType: PushType) -> String {
        guard let suffix = pushType.topicSuffix, !bundleID.hasSuffix(suffix) else { return bundleID }
        return bundleID + suffix
    }

    /// `apns-push-type`, `apns-topic`, then priority, expiration, collapse ID and `apns-id` when set.
    public func encodedRequest() -> APNsEncodedRequest {
        var headers = [
            HeaderField(name: "apns-push-type", value: pushType.rawValue),
            HeaderField(name: "apns-topic", value: topic),
        ]
        if let priority { headers.append(HeaderField(name: "apns-priority", value: String(priority.rawValue))) }
        if let expiration { headers.append(HeaderField(name: "apns-expiration", value: String(expiration))) }
        if let collapseID { headers.append(HeaderField(name: "apns-collapse-id", value: collapseID)) }
        if let apnsID { headers.append(HeaderField(name: "apns-id", value: apnsID.uuidString.lowercased(), valueIsUnique: true)) }
        return APNsEncodedRequest(headers: headers, body: Array(payload.jsonText().utf8))
    }
}
