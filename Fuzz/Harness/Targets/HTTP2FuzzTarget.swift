import HTTP2
import Logging
import MockAPNs
import MockAPNsHTTP2

/// The HTTP/2 input path: the bytes are what a client sends on one h2c connection to a real `APNsHTTP2Listener`
/// (connection core, nghttp2 session, pipeline, in-memory recorder), driven in memory: each input gets its own
/// ``EmbeddedHTTP2Connection`` — no socket, no thread, nothing left running between inputs. The bytes are written,
/// the client's side is closed, and everything the server does in answer has happened when `run` returns. An input
/// whose first byte is even is prefixed with the HTTP/2 client preface, so mutations mostly exercise frames.
public enum HTTP2FuzzTarget {
    /// The mock, built once (never started: no port is bound).
    static let server: APNsHTTP2Listener = {
        var configuration = MockConfiguration()
        configuration.memoryLimit = 256
        configuration.credentialsDirectory = FuzzCredentials.credentials.directory
        configuration.logger.logLevel = .critical
        var listener = ListenerConfiguration()
        listener.port = 0
        listener.tls = nil
        listener.loops = .own(1)
        do {
            return try APNsHTTP2Listener(mock: Mock(configuration: configuration), configuration: listener)
        } catch {
            fatalError("fuzz setup: \(error)")
        }
    }()

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let input = (bytes.first ?? 0) & 1 == 0 ? preface + bytes.dropFirst() : Array(bytes.dropFirst())
        let connection: EmbeddedHTTP2Connection
        do {
            connection = try server.makeEmbeddedConnection()
        } catch {
            fatalError("fuzz setup: \(error)")
        }
        connection.writeInbound(input)
        _ = connection.readOutbound()
        connection.endInbound()
        precondition(connection.isClosed, "the server kept the connection open after the client's end of input")
        connection.close()
    }
}
