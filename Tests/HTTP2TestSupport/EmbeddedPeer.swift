@testable import HTTP2

/// A client speaking raw frames to an ``EmbeddedHTTP2Connection``: no socket, no thread, no clock but the
/// connection's own, so every test reads exactly the frames the server wrote in answer to exactly the bytes sent.
public final class EmbeddedPeer {
    public let connection: EmbeddedHTTP2Connection
    public let hpack = HPACKCodec()
    private var received: [UInt8] = []
    private var offset = 0

    /// Opens the connection; with `preface`, sends the client preface and an empty SETTINGS.
    public init(configuration: HTTP2ServerConfiguration = HTTP2ServerConfiguration(), handler: any HTTP2RequestHandler,
         preface: Bool = true, settings: [(UInt16, UInt32)] = []) throws {
        connection = try EmbeddedHTTP2Connection(configuration: configuration, handler: handler)
        if preface { send(H2Wire.preface + H2Wire.settings(settings)) }
    }

    public func send(_ bytes: [UInt8]) {
        connection.writeInbound(bytes)
    }

    /// HEADERS (and DATA when there is a body) for a request on `stream`.
    public func request(stream: UInt32, path: String, method: String = "POST", headers: [(String, String)] = [],
                 body: [UInt8]? = nil) {
        send(requestBytes(stream: stream, path: path, method: method, headers: headers, body: body))
    }

    public func requestBytes(stream: UInt32, path: String, method: String = "POST", headers: [(String, String)] = [],
                      body: [UInt8]? = nil) -> [UInt8] {
        let block = hpack.encode([(":method", method), (":scheme", "http"), (":authority", "embedded"), (":path", path)]
            + headers)
        let hasBody = !(body?.isEmpty ?? true)
        var bytes = H2Wire.frame(type: H2Frame.headers, flags: H2Frame.endHeaders | (hasBody ? 0 : H2Frame.endStream),
                                 stream: stream, payload: block)
        if let body, hasBody { bytes += H2Wire.data(stream: stream, body) }
        return bytes
    }

    /// The complete frames the server wrote since the last call.
    public func frames() -> [H2Frame] {
        received += connection.readOutbound()
        return H2Wire.frames(in: received, from: &offset)
    }

    /// The decoded fields of a HEADERS frame (which must come in order: HPACK state is per connection).
    public func fields(_ frame: H2Frame) -> [(String, String)] {
        hpack.decode(frame.payload)
    }
}
