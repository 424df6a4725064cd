/// One request as the server received it, before any APNs rule is applied.
///
/// Headers stay in wire order with duplicates kept, because `DuplicateHeaders` is itself a rule and a
/// recorded request should show exactly what was sent. The body is raw bytes: its size is checked before
/// it is parsed.
public struct APNsRequest: Sendable, Hashable, Codable {
    /// The `:method` pseudo-header, e.g. `POST`.
    public var method: String
    /// The `:path` pseudo-header, e.g. `/3/device/<token>`.
    public var path: String
    /// Regular headers in wire order, names lowercase, duplicates kept.
    public var headers: [HeaderField]
    /// The request body, as received.
    public var body: [UInt8]

    /// Makes a request.
    public init(method: String, path: String, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// Every value of header `name` (case-insensitive), in wire order.
    public func values(_ name: String) -> [String] {
        let wanted = ASCIIByte.lowercased(name)
        return headers.filter { $0.name == wanted }.map(\.value)
    }

    /// The first value of header `name` (case-insensitive), or `nil` when it is absent.
    public func value(_ name: String) -> String? {
        value(lowercaseName: ASCIIByte.lowercased(name))
    }

    /// `value(_:)` for a name already in lower case (the rules' literal header names, such as `"authorization"`):
    /// no lowercasing of the name per lookup. Stored names are lowercase (`HeaderField`), so the answer is the same.
    public func value(lowercaseName name: String) -> String? {
        headers.first(where: { $0.name == name })?.value
    }
}
