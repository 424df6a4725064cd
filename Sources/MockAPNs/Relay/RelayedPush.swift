import APNsModel

/// A device push as the relay forwards it: the sender's token, headers and body, unchanged.
public struct RelayedPush: Sendable {
    /// The hex device token from the request's path.
    public var deviceToken: String
    /// The request's headers as sent (the relay picks the `apns-*` ones it forwards).
    public var headers: [HeaderField]
    /// The body as sent.
    public var body: [UInt8]

    /// Describes a push to relay.
    public init(deviceToken: String, headers: [HeaderField], body: [UInt8]) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (lowercase), if sent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
