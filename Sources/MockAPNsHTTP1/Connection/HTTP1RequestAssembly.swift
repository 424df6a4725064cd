import APNsModel
import MockAPNs
import NIOCore
import NIOHTTP1

/// The request being read on one HTTP/1.1 connection, in the pipeline's terms, held to the HTTP/2 listener's limits.
struct HTTP1RequestAssembly {
    private(set) var method = "GET"
    private(set) var target = "/"
    private(set) var headers: [HeaderField] = []
    private(set) var body: [UInt8] = []
    /// The `Host` field, which HTTP/2 carries as `:authority` and records do not list among the headers.
    private(set) var host: String?
    private(set) var version = HTTPVersion.http1_1
    private(set) var keepAlive = true
    private(set) var receivedAtNanos: UInt64 = 0
    /// Set when the header list passed the limit; the fields read before it are kept for the record.
    private(set) var headerListTooLarge = false

    /// Starts a request from its head.
    mutating func begin(_ head: HTTPRequestHead, maxHeaderListSize: Int) {
        receivedAtNanos = Timestamp.monotonicNanos()
        method = head.method.rawValue
        target = head.uri
        version = head.version
        keepAlive = head.isKeepAlive
        host = nil
        body = []
        headers = []
        headers.reserveCapacity(head.headers.count)
        headerListTooLarge = false
        // As HTTP/2 counts a header list: name + value + 32 per field, the pseudo-fields (:method, :path, :scheme,
        // :authority) included.
        var size = 7 + method.utf8.count + 32 + 5 + target.utf8.count + 32 + 7 + 4 + 32
        for (name, value) in head.headers {
            let field = HeaderField(name: name, value: value)
            if field.name == "host" {
                host = value
                size += 10 + value.utf8.count + 32
            } else {
                size += field.name.utf8.count + value.utf8.count + 32
            }
            if size > maxHeaderListSize {
                headerListTooLarge = true
                break
            }
            if field.name != "host" { headers.append(field) }
        }
    }

    /// Adds a body chunk; past `maxBodyBytes` the rest is discarded (the pipeline then answers 413).
    mutating func append(_ buffer: ByteBuffer, maxBodyBytes: Int) {
        let room = maxBodyBytes - body.count
        guard room > 0 else { return }
        if body.isEmpty { body.reserveCapacity(min(buffer.readableBytes, maxBodyBytes)) }
        body.append(contentsOf: buffer.readableBytesView.prefix(room))
    }

    /// The assembled request for the pipeline; the body and headers are handed over, not copied.
    mutating func take() -> APNsRequest {
        let request = APNsRequest(method: method, path: target, headers: headers, body: body)
        headers = []
        body = []
        return request
    }
}
