import APNsModel

/// A device push as the relay forwards it: the sender's token, headers and body, unchanged.
public struct RelayedPush: Sendable {
    /// The hex device token from the request's path.
    public var deviceToken: String
    /// The request's headers as sent (the relay picks the `apns-*` ones it forwards).
    public var headers: [HeaderField]
    /// The body as sent.
    public var body: [UInt8]
    /// Whether the sender proved itself with a TLS client certificate (no token to forward) rather than a provider
    /// token in its `authorization` header.
    public var certificateAuthenticated: Bool

    /// Describes a push to relay.
    public init(deviceToken: String, headers: [HeaderField], body: [UInt8], certificateAuthenticated: Bool = false) {
        self.deviceToken = deviceToken
        self.headers = headers
        self.body = body
        self.certificateAuthenticated = certificateAuthenticated
    }

    /// The first value of header `name` (lowercase), if sent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
