/// A request to send with `HTTP2ClientConnection.send(_:)`.
public struct HTTP2ClientRequest: Sendable {
    /// `:method`.
    public var method: String
    /// `:path`, e.g. "/3/device/abcd".
    public var path: String
    /// `:authority`; nil = "host:port" of the connection.
    public var authority: String?
    /// Regular headers (lowercase names), sent in order.
    public var headers: [HTTPHeaderField]
    /// Request body; nil or empty sends HEADERS with END_STREAM.
    public var body: [UInt8]?
    /// Overrides the connection's default request timeout.
    public var timeout: Duration?

    /// Creates a request.
    public init(method: String = "GET", path: String, authority: String? = nil, headers: [HTTPHeaderField] = [],
                body: [UInt8]? = nil, timeout: Duration? = nil) {
        self.method = method
        self.path = path
        self.authority = authority
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A complete response.
public struct HTTP2ClientResponse: Sendable {
    /// `:status`.
    public var status: Int
    /// Response headers (and trailers), in order, without pseudo-headers.
    public var headers: [HTTPHeaderField]
    /// The response body.
    public var body: [UInt8]
    /// The stream the response came on.
    public var streamID: Int32

    /// The first value of header `name` (lowercase), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}

/// Client connection options.
public struct HTTP2ClientConfiguration: Sendable {
    /// Default per-request timeout (nil = none).
    public var requestTimeout: Duration? = .seconds(30)
    /// Time allowed for TCP + TLS + the server's first SETTINGS.
    public var connectTimeout: Duration = .seconds(10)
    /// Our SETTINGS_INITIAL_WINDOW_SIZE (and connection window) for responses.
    public var initialWindowSize: UInt32 = 1 << 20
    /// Responses larger than this fail the request with `.protocolError` (no unbounded buffering).
    public var maxResponseBodyBytes: Int = 16 << 20
    /// How often a request refused with REFUSED_STREAM (never processed) is retried on the same connection.
    public var refusedStreamRetries: Int = 3

    /// Creates client options with defaults.
    public init() {}
}
