import APNsClient
import APNsModel
import MockAPNs
import Synchronization

/// The relay (`serve --relay`, `APNsMockOptions.relay`): sends each push the mock accepted to the upstream through an
/// `APNsClient` — a few long-lived connections (the client's pool, honouring the upstream's MAX_CONCURRENT_STREAMS),
/// no retries (the sender owns them, as with Apple) — and hands the pipeline the upstream's answer. Made from a
/// ``RelayConfiguration`` by ``init(configuration:)``; no connection opens before the first relayed push.
///
/// Who the relay is to the upstream (``RelayCredentials``): re-signing every push with a key of its own (the client's
/// token, minted once per 50 minutes), or forwarding a token-authenticated push with the sender's own `authorization`
/// header, unchanged, so the upstream checks the sender's token. A certificate-authenticated push cannot be forwarded
/// as its sender (its proof is the TLS handshake), so it goes through the relay's own client certificate, or, without
/// one, is answered `403 MissingProviderToken` with the reason recorded.
///
/// In-flight pushes upstream are bounded (``RelayConfiguration/maxInFlight``): a push arriving while the bound is
/// reached is answered `429 TooManyRequests` at once rather than queued, so a burst costs the relay no memory and the
/// sender slows down as it would for Apple. While the upstream is known to be down (the pool's last attempts failed and
/// no connection is open) a push is answered `503 ServiceUnavailable` at once, with the pool's cause, rather than
/// waiting out the timeout; the pool keeps reconnecting with its back-off meanwhile.
public final class APNsClientRelay: PushRelay {
    /// The headers forwarded as the sender sent them (push type and topic go first, as `APNsRawNotification` puts them).
    static let forwardedHeaders = ["apns-id", "apns-priority", "apns-expiration", "apns-collapse-id"]

    /// How token-authenticated pushes go up.
    enum TokenRoute: Sendable {
        /// Re-signed with the relay's own key, all through one client.
        case resign(APNsClient)
        /// With each sender's own `authorization`, through a connection per token.
        case forward(ForwardingClients)
    }

    /// What the relay was made from.
    public let configuration: RelayConfiguration
    private let tokens: TokenRoute
    /// Sends certificate-authenticated pushes with the relay's own certificate; nil without one.
    private let certificateClient: APNsClient?
    private let inFlight = Atomic<Int>(0)

    /// A relay as `configuration` says (already checked), sending token-authenticated pushes by `tokens` and
    /// certificate-authenticated ones through `certificateClient`.
    init(configuration: RelayConfiguration, tokens: TokenRoute, certificateClient: APNsClient?) {
        self.configuration = configuration
        self.tokens = tokens
        self.certificateClient = certificateClient
    }

    /// The upstream's URL, for the log.
    public var upstream: String {
        switch configuration.upstream {
        case .production: "https://api.push.apple.com"
        case .development: "https://api.sandbox.push.apple.com"
        case .custom(let url): url
        }
    }

    /// Sends `push` upstream once and returns the upstream's answer, or why there is none (`429` when
    /// ``RelayConfiguration/maxInFlight`` pushes are already up, `403` for a certificate sender it cannot speak for,
    /// `503` with the cause when the upstream is unreachable or slow).
    public func relay(_ push: RelayedPush) async -> RelayVerdict {
        let started = ContinuousClock.now
        func micros() -> Int64 {
            let elapsed = ContinuousClock.now - started
            return elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        }
        let maxInFlight = configuration.maxInFlight
        guard inFlight.add(1, ordering: .relaxed).newValue <= maxInFlight else {
            inFlight.subtract(1, ordering: .relaxed)
            return RelayVerdict(status: APNsReason.tooManyRequests.status, reason: APNsReason.tooManyRequests.rawValue,
                                error: "relay full: \(maxInFlight) pushes already in flight upstream (maxInFlight, "
                                    + "serve --relay-max-in-flight)")
        }
        defer { inFlight.subtract(1, ordering: .relaxed) }
        let client: APNsClient
        var headers: [HeaderField] = []
        switch tokens {
        case .resign(let resigning):
            client = resigning
        case .forward(let forwarding):
            if push.certificateAuthenticated {
                guard let certificateClient else {
                    return RelayVerdict(status: APNsReason.missingProviderToken.status, reason: APNsReason.missingProviderToken.rawValue,
                                        durationMicros: micros(),
                                        error: "not relayed: the sender authenticated with a client certificate, which cannot be "
                                            + "forwarded; give the relay a certificate of its own (serve --relay-cert/--relay-cert-key, "
                                            + "RelayCredentials.forward(clientCertificate:)), or re-sign every push with a key "
                                            + "(serve --relay-key-file, RelayCredentials.resign)")
                }
                client = certificateClient
            } else {
                // A push without a token (relayed under relaysRejected) goes up without one, for the upstream to judge.
                let authorization = push.header("authorization")
                do {
                    client = try forwarding.client(for: authorization ?? "")
                } catch {
                    return Self.unavailable("cannot open a connection for this sender's token: \(error)", micros: micros())
                }
                if let authorization { headers.append(HeaderField(name: "authorization", value: authorization)) }
            }
        }
        if client.openConnections == 0, let outage = client.outage {
            return Self.unavailable("upstream unreachable: \(outage.description)", micros: micros())
        }
        headers += Self.forwardedHeaders.compactMap { name in push.header(name).map { HeaderField(name: name, value: $0) } }
        let notification = APNsRawNotification(pushType: push.header("apns-push-type"), topic: push.header("apns-topic"),
                                               payload: push.body, headers: headers)
        do {
            let answer = try await client.send(notification, deviceToken: push.deviceToken)
            return RelayVerdict(status: 200, apnsID: answer.apnsID, apnsUniqueID: answer.apnsUniqueID, durationMicros: micros())
        } catch {
            if case let .rejected(status, reason, timestamp, apnsID) = error {
                return RelayVerdict(status: status, reason: reason.description, apnsID: apnsID, timestamp: timestamp,
                                    durationMicros: micros())
            }
            return Self.unavailable(error.description, micros: micros())
        }
    }

    /// `503 ServiceUnavailable` (APNs's own code for "not now") with the cause.
    private static func unavailable(_ cause: String, micros: Int64) -> RelayVerdict {
        RelayVerdict(status: APNsReason.serviceUnavailable.status, reason: APNsReason.serviceUnavailable.rawValue,
                     durationMicros: micros, error: cause)
    }

    /// Who the relay is to the upstream, for the log.
    public var identity: String {
        switch configuration.credentials {
        case let .resign(_, keyID, teamID): "re-signing every push with key \(keyID) of team \(teamID)"
        case .forward(clientCertificate: .some):
            "forwarding each sender's token on a connection of its own; certificate senders with the relay's own certificate"
        case .forward(clientCertificate: nil):
            "forwarding each sender's token on a connection of its own; certificate senders are answered 403 "
                + "(the relay has no certificate of its own)"
        }
    }

    /// Closes the upstream connections once pushes in flight are answered. Call it once the mock has stopped taking
    /// pushes.
    public func shutdown() async {
        switch tokens {
        case .resign(let client): await client.shutdown()
        case .forward(let forwarding): await forwarding.shutdown()
        }
        await certificateClient?.shutdown()
    }
}
