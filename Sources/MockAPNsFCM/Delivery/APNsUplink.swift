import APNsCrypto
import APNsModel
import Foundation
import JSON
import MockAPNs
import Support

/// FCM's side of APNs, for the pushes the front door makes: per project, one connection into the mock's pipeline
/// (FCM keeps a pooled connection per APNs credential, so the mock's connection rules see one long-lived sender, not
/// a connection per message) and the provider token it signs with, renewed every 50 minutes (APNs refuses a token
/// older than an hour and one renewed more often than every 20 minutes).
///
/// A push goes through ``Pipeline/process(_:on:later:)`` like any other: rules, faults, devices, recording, relay.
final class APNsUplink: Sendable {
    /// What APNs answered one push.
    struct Outcome: Sendable {
        var status: Int
        /// The reason of a refusal (`Unregistered`, `BadDeviceToken`…).
        var reason: String?
        /// The push's `apns-id`, its record's key.
        var apnsID: String?
        /// Whether the connection was reset, dropped or stalled instead of answered (a transport fault).
        var unanswered: Bool
    }

    /// A project's APNs signing key, loaded.
    struct SigningKey: Sendable {
        var teamID: String
        var keyID: String
        var key: P256PrivateKey
    }

    private struct Connection: Sendable {
        var id: UInt64
        var handle: PipelineConnectionHandle
        /// `bearer <provider token>`, the `authorization` value every push of the connection sends.
        var authorization: String
        var tokenIssuedAt: Int64
    }

    private static let tokenLifetimeSeconds: Int64 = 50 * 60

    private let mock: Mock
    private let keys: [String: SigningKey]
    private let fallbackKey: SigningKey?
    /// Each project's connection, numbered by the mock (``Mock/newConnectionID()``).
    private let connections = Locked<[String: Connection]>([:])

    /// Loads each project's key (`*` for every project without its own), else the bundled test key.
    init(mock: Mock, keys files: [String: APNsSigningKeyFile]) throws(FCMSetupError) {
        self.mock = mock
        var keys: [String: SigningKey] = [:]
        for (project, file) in files {
            do {
                keys[project] = SigningKey(teamID: file.teamID, keyID: file.keyID, key: try P256PrivateKey(contentsOfFile: file.path))
            } catch {
                throw .badAPNsKey("\(file.path) is not an APNs .p8 key: \(error)")
            }
        }
        if let any = keys.removeValue(forKey: "*") {
            fallbackKey = any
        } else if let credentials = mock.credentials {
            let path = credentials.directory + "/AuthKey_TESTKEY001.p8"
            fallbackKey = try? SigningKey(teamID: "TESTTEAM01", keyID: "TESTKEY001", key: P256PrivateKey(contentsOfFile: path))
        } else {
            fallbackKey = nil
        }
        self.keys = keys
    }

    /// Whether `project` has a key to sign with.
    func canSign(for project: String) -> Bool { keys[project] != nil || fallbackKey != nil }

    /// Sends one push for `project` to `deviceToken` (`/3/device/<token>`) and waits for the pipeline's answer; its
    /// record names the FCM message it delivers (`link`).
    func push(project: String, deviceToken: String, headers: [HeaderField], payload: [UInt8], remote: String,
              link: RecordedRequest.FCMLink) async -> Outcome {
        guard let key = keys[project] ?? fallbackKey else {
            return Outcome(status: 403, reason: APNsReason.missingProviderToken.rawValue, apnsID: nil, unanswered: false)
        }
        // The mock's clock, which a test may have moved: the pipeline checks the token's `iat` against it.
        let now = mock.clock.nowMillis() / 1000
        let connection = self.connection(for: project, key: key, now: now)
        var fields = headers
        fields.append(HeaderField(name: "authorization", value: connection.authorization))
        let request = APNsRequest(method: "POST", path: "/3/device/" + deviceToken, headers: fields, body: payload)
        let on = PipelineConnection(id: connection.id, remote: remote, streamID: 1, handle: connection.handle, fcm: link)
        let response: PipelineResponse = await withCheckedContinuation { continuation in
            let answer = mock.pipeline.process(request, on: on, later: { continuation.resume(returning: $0) })
            if case .now(let response) = answer { continuation.resume(returning: response) }
        }
        if let delay = response.delay { try? await Task.sleep(for: delay) }
        let apnsID = response.headers.first { $0.name == "apns-id" }?.value
        switch response.disposition {
        case .respond:
            let reason = response.status == 200 ? nil
                : (try? JSONValue.parse(response.body))?["reason"]?.stringValue
            return Outcome(status: response.status, reason: reason, apnsID: apnsID, unanswered: false)
        case .stall, .abortStream, .closeConnection, .dropConnection:
            return Outcome(status: 0, reason: nil, apnsID: apnsID, unanswered: true)
        }
    }

    /// The project's connection, with a provider token no older than ``tokenLifetimeSeconds``.
    private func connection(for project: String, key: SigningKey, now: Int64) -> Connection {
        connections.withLock { byProject in
            if var existing = byProject[project] {
                if now - existing.tokenIssuedAt >= Self.tokenLifetimeSeconds || now < existing.tokenIssuedAt {
                    existing.authorization = "bearer " + Self.token(key, now: now)
                    existing.tokenIssuedAt = now
                    byProject[project] = existing
                }
                return existing
            }
            let id = mock.newConnectionID()
            let handle = mock.pipeline.connectionOpened(id: id, certificateDER: nil, transport: .http2)
            let made = Connection(id: id, handle: handle, authorization: "bearer " + Self.token(key, now: now), tokenIssuedAt: now)
            byProject[project] = made
            return made
        }
    }

    private static func token(_ key: SigningKey, now: Int64) -> String {
        // ES256 with a loaded P-256 key fails only when OpenSSL cannot sign at all; the pipeline then answers 403.
        (try? JWTSigner.makeToken(teamID: key.teamID, keyID: key.keyID, issuedAt: now, key: key.key)) ?? ""
    }

    /// Closes the front door's pipeline connections.
    func close() {
        let ids = connections.withLock { byProject in
            defer { byProject.removeAll() }
            return byProject.values.map(\.id)
        }
        for id in ids { mock.pipeline.connectionClosed(id: id) }
    }
}
