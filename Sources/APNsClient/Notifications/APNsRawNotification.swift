import APNsModel

/// The escape hatch: any push type string, topic, body bytes and extra headers, sent as given (duplicates and
/// odd values included). The client still adds `authorization` (token auth) and an `apns-id` when none is listed.
public struct APNsRawNotification: APNsNotificationRequest, Hashable {
    /// `apns-push-type`, or nil to send none.
    public var pushType: String?
    /// `apns-topic`, or nil to send none.
    public var topic: String?
    /// The exact body bytes.
    public var payload: [UInt8]
    /// Further headers, sent after `apns-push-type` and `apns-topic`, in order.
    public var headers: [HeaderField]

    /// A raw notification with a byte body.
    public init(pushType: String?, topic: String?, payload: [UInt8], headers: [HeaderField] = []) {
        self.pushType = pushType
        self.topic = topic
        self.payload = payload
        self.headers = headers
    }

    /// A raw notification whose body is `payload` written as compact JSON, keys in order.
    public init(pushType: String?, topic: String?, payload: JSONValue, headers: [HeaderField] = []) {
        self.init(pushType: pushType, topic: topic, payload: Array(payload.jsonText().utf8), headers: headers)
    }

    /// Push type and topic first (when set), then `headers`, and the body.
    public func encodedRequest() -> APNsEncodedRequest {
        var fields: [HeaderField] = []
        fields.reserveCapacity(headers.count + 2)
        if let pushType { fields.append(HeaderField(name: "apns-push-type", value: pushType)) }
        if let topic { fields.append(HeaderField(name: "apns-topic", value: topic)) }
        fields.append(contentsOf: headers)
        return APNsEncodedRequest(headers: fields, body: payload)
    }
}
