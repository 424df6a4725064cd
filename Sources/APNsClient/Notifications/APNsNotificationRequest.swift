import APNsModel

/// Anything `APNsClient.send(_:deviceToken:)` can send: it turns itself into headers and a body.
/// `APNsNotification` (typed, with APNs's header rules built in) and `APNsRawNotification` (anything) conform.
public protocol APNsNotificationRequest: Sendable {
    /// The `apns-*` headers (no `authorization`, no pseudo-headers) and the body to send.
    func encodedRequest() -> APNsEncodedRequest
}

/// A notification as it goes on the wire.
public struct APNsEncodedRequest: Sendable, Hashable {
    /// Headers in order. The client adds `authorization` (token auth) first and `apns-id` last when absent.
    public var headers: [HeaderField]
    /// The request body.
    public var body: [UInt8]

    /// Creates an encoded request.
    public init(headers: [HeaderField], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }

    /// The first `apns-id` header's value, if any.
    public var apnsID: String? { headers.first { $0.name == "apns-id" }?.value }
}
