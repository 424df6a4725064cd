import APNsCrypto
import APNsTesting
import Foundation
import HTTP2

/// Sends pushes to an `APNsMock` the way a sender would (TLS trusting the mock's CA, a provider token
/// signed with its test key), without depending on the client library under test elsewhere.
final class RawSender: Sendable {
    struct Answer: Sendable {
        var status: Int
        var reason: String?
        var headers: [HTTPHeaderField]
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    private let client: HTTP2Client
    private let ownsClient: Bool
    private let connection: HTTP2ClientConnection
    private let jwt: String

    private init(client: HTTP2Client, ownsClient: Bool, connection: HTTP2ClientConnection, jwt: String) {
        self.client = client
        self.ownsClient = ownsClient
        self.connection = connection
        self.jwt = jwt
    }

    /// Connects to `mock`; sign with `key` (the mock's test key by default). With `client`, the connection
    /// runs on that client's loop and `close()` leaves the client running.
    static func connect(to mock: APNsMock, key: TestSigningKey? = nil, requestTimeout: Duration = .seconds(10),
                        on shared: HTTP2Client? = nil) async throws -> RawSender {
        let key = key ?? mock.testKey
        var configuration = HTTP2ClientConfiguration()
        configuration.requestTimeout = requestTimeout
        let client = shared ?? HTTP2Client(configuration: configuration)
        do {
            let tls = mock.url.hasPrefix("https:") ? TLSClientConfiguration(trustRoots: .string(mock.caCertificatePEM)) : nil
            let connection = try await client.connect(host: mock.host, port: mock.port, tls: tls)
            let jwt = try JWTSigner.makeToken(
                teamID: key.teamID, keyID: key.keyID, issuedAt: Int64(Date().timeIntervalSince1970),
                key: try P256PrivateKey(pemRepresentation: key.privateKeyPEM))
            return RawSender(client: client, ownsClient: shared == nil, connection: connection, jwt: jwt)
        } catch {
            if shared == nil { await client.shutdown() }
            throw error
        }
    }

    /// Sends `payload` (JSON text) to `token` with the given headers.
    @discardableResult
    func send(_ payload: String, to token: String = Tokens.first, topic: String = "com.example.shop",
              pushType: String = "alert", extraHeaders: [(String, String)] = []) async throws -> Answer {
        var headers = [HTTPHeaderField(name: "authorization", value: "bearer \(jwt)"),
                       HTTPHeaderField(name: "apns-topic", value: topic),
                       HTTPHeaderField(name: "apns-push-type", value: pushType)]
        headers += extraHeaders.map { HTTPHeaderField(name: $0.0, value: $0.1) }
        let response = try await connection.send(
            HTTP2ClientRequest(method: "POST", path: "/3/device/\(token)", headers: headers, body: Array(payload.utf8)))
        let reason = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["reason"] as? String
        return Answer(status: response.status, reason: reason, headers: response.headers)
    }

    /// Closes the connection, and the client's loop unless it was shared.
    func close() async {
        await connection.close()
        if ownsClient { await client.shutdown() }
    }
}
