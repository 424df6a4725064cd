import APNsModel
import Logging
import Foundation
import Synchronized

/// The mock's decision path, independent of any transport: authenticate → connection rules → validate
/// (all in `RequestDecider`) → fault plan → device registry or channel store → response → record.
///
/// HTTP/2 (`MockAPNsServer`) and the HTTP/1.1 endpoint both call its one entry, `process(_:on:later:)`, and branch
/// on its ``PipelineAnswer``, so both answer, relay and record alike. `process` runs on the caller's thread and never
/// blocks on I/O; delays are returned, not slept.
///
/// This file holds connection tracking and the entry points; the fault plan and the device registry are applied in
/// `Pipeline+Decision`, channel management in `Pipeline+Channels`, the response and its record built in
/// `Pipeline+Recording` (which `Pipeline+Refused` shares).
public final class Pipeline: Sendable {
    /// Configuration in force.
    public let configuration: PipelineConfiguration
    /// Every request ends up here.
    public let recorder: Recorder
    /// Devices that should not answer 200.
    public let devices: DeviceRegistry
    /// Scripted faults.
    public let faults: FaultPlan
    /// Broadcast channels.
    public let channels: ChannelStore
    private let tokens: ProviderTokenAuthenticator
    private let certificates: CertificateAuthenticator
    /// Every open connection's state, for transports that do not keep the handle (HTTP/1.1) and for counting.
    private let connections = Locked<[UInt64: PipelineConnectionHandle]>([:])
    /// Counts new token connections per team, to report senders that open one per push.
    let churn: ConnectionChurnMonitor
    /// Where accepted device pushes are sent on (`serve --relay`); nil = the mock answers everything itself.
    public let relay: (any PushRelay)?
    /// What the relay did, for `/metrics`.
    public let relayStatistics = RelayStatistics()
    /// Where the pipeline reports what no answer says (a shared fault that could not be claimed).
    let logger: Logger

    /// Assembles a pipeline from its parts.
    public init(configuration: PipelineConfiguration, tokens: ProviderTokenAuthenticator,
                certificates: CertificateAuthenticator, recorder: Recorder, devices: DeviceRegistry = DeviceRegistry(),
                faults: FaultPlan = FaultPlan(), channels: ChannelStore = ChannelStore(),
                relay: (any PushRelay)? = nil, logger: Logger = Logger(label: "mockapns")) {
        self.configuration = configuration
        self.relay = relay
        self.tokens = tokens
        self.certificates = certificates
        self.recorder = recorder
        self.devices = devices
        self.faults = faults
        self.channels = channels
        self.logger = logger
        churn = ConnectionChurnMonitor(limit: configuration.newConnectionsPerSecondLimit, logger: logger)
    }

    /// Starts tracking a connection; a client certificate makes it certificate-authenticated for its life.
    /// A transport that keeps the returned handle and passes it in `PipelineConnection.handle` spares each request
    /// a lookup in the table every connection shares.
    /// `transport` says how connection churn reads the connection (see ``PipelineTransport``).
    @discardableResult
    public func connectionOpened(id: UInt64, certificateDER: [UInt8]?,
                                 transport: PipelineTransport = .http2) -> PipelineConnectionHandle {
        let slot = makeSlot(certificateDER: certificateDER, now: Timestamp.nowSeconds())
        if transport == .http1 { slot.state.withLock { $0.transport = .http1 } }
        connections.withLock { $0[id] = slot }
        return slot
    }

    /// State for a connection the transport did not announce (HTTP/1.1), made on its first request.
    private func adoptConnection(_ connection: PipelineConnection, now: Int64) -> PipelineConnectionHandle {
        let fresh = makeSlot(certificateDER: connection.certificateDER, now: now)
        return connections.withLock { connections in
            if let existing = connections[connection.id] { return existing }
            connections[connection.id] = fresh
            return fresh
        }
    }

    /// A new connection's state; a client certificate is read once, here, outside the table's lock.
    private func makeSlot(certificateDER: [UInt8]?, now: Int64) -> PipelineConnectionHandle {
        var state = PipelineConnectionState()
        if let der = certificateDER {
            state.certificate = certificates.facts(certificateDER: der, now: now)
        }
        return PipelineConnectionHandle(state)
    }

    /// Forgets a closed connection's state.
    public func connectionClosed(id: UInt64) {
        guard let slot = connections.withLock({ $0.removeValue(forKey: id) }) else { return }
        // An HTTP/1.1 connection's close lets the team's next new connection count as a replacement (churn).
        let team = slot.state.withLock { $0.transport == .http1 ? $0.churnCountedTeam : nil }
        if let team { churn.connectionClosed(team: team, nowMillis: Timestamp.nowMillis()) }
    }

    /// How many connections were flagged as opening a new connection per push (`ConnectionChurnMonitor`).
    public var churnFlaggedConnections: Int { churn.flaggedConnections }

    /// How many connections are open (for metrics).
    public var openConnections: Int { connections.withLock { $0.count } }

    /// Decides, records and answers one request: the one entry every transport calls. Never blocks; a `delay` fault
    /// comes back in the response's `delay`, for the transport to wait out.
    ///
    /// The answer is `.now` unless it has to wait for something off the caller's thread: the record's line written
    /// and committed (`--record-sync`), the upstream's answer (`--relay`), or the shared store's grant for a counted
    /// fault. Then it is `.later`, and the completion `later` gives is called once with the response, from the writer's
    /// thread or a task; the transport hops back to its own loop from there. `later` is evaluated only then, so a
    /// request answered now allocates no completion.
    public func process(_ request: APNsRequest, on connection: PipelineConnection,
                        later: @autoclosure () -> @Sendable (PipelineResponse) -> Void) -> PipelineAnswer {
        guard answersLater else { return .now(process(request, on: connection, afterRecording: nil, relayAnswer: nil)) }
        let completion = later()
        let sync = recorder.writesBeforeAnswering
        let response = process(request, on: connection, afterRecording: sync ? completion : nil, relayAnswer: completion)
        return sync || response.deferred ? .later : .now(response)
    }

    /// Whether an answer may come after `process` returns (`--record-sync`, `--relay`, counted faults shared
    /// through `--store`); otherwise every answer is `.now`.
    var answersLater: Bool { recorder.writesBeforeAnswering || relay != nil || faults.claimsCountsElsewhere }

    private func process(_ request: APNsRequest, on connection: PipelineConnection,
                         afterRecording: (@Sendable (PipelineResponse) -> Void)?,
                         relayAnswer: (@Sendable (PipelineResponse) -> Void)?,
                         claims: [String: Bool]? = nil) -> PipelineResponse {
        let now = configuration.clock.nowSeconds()
        let slot = connection.handle ?? connections.withLock { $0[connection.id] } ?? adoptConnection(connection, now: now)
        // Requests of one connection are decided one at a time, each seeing the state the previous one left.
        return slot.state.withLock { state in
            process(request, on: connection, state: &state, now: now, afterRecording: afterRecording,
                    relayAnswer: relayAnswer, claims: claims)
        }
    }

    /// Asks the shared store for the firings `pending` needs (off the event loop), then decides `request` again with
    /// the store's answer and hands the response on as `process(_:on:answer:)` would have.
    private func claimThenAnswer(_ pending: [(id: String, rule: FaultRule)], request: APNsRequest, connection: PipelineConnection,
                                 afterRecording: (@Sendable (PipelineResponse) -> Void)?,
                                 answer: @escaping @Sendable (PipelineResponse) -> Void) {
        Task {
            let (claims, failure) = await faults.claim(pending)
            if let failure { logger.warning("a counted fault did not fire", metadata: ["why": "\(failure)"]) }
            let response = process(request, on: connection, afterRecording: afterRecording, relayAnswer: answer, claims: claims)
            if afterRecording == nil, !response.deferred { answer(response) }
        }
    }

    /// `process` with the connection's state in hand.
    private func process(_ request: APNsRequest, on connection: PipelineConnection, state: inout PipelineConnectionState,
                         now: Int64, afterRecording: (@Sendable (PipelineResponse) -> Void)?,
                         relayAnswer: (@Sendable (PipelineResponse) -> Void)?, claims: [String: Bool]?) -> PipelineResponse {
        let context: DecisionContext
        let authentication: RecordedRequest.Authentication
        if let certificate = state.certificate {
            let credential = ProviderCredential.certificate(certificate)   // APNs ignores `authorization` on certificate connections
            authentication = state.certificateAuthentication(credential)
            context = decisionContext(credential: credential, now: now)
        } else {
            let memo = state.credential(authorization: request.value(lowercaseName: "authorization"), tokens: tokens)
            authentication = memo.authentication
            if !state.churnCounted, case .token(let facts) = memo.credential, let key = facts.key {
                state.churnCounted = true
                state.churnCountedTeam = key.teamID
                if churn.connectionAuthenticated(team: key.teamID, nowMillis: Timestamp.nowMillis(), transport: state.transport) {
                    state.churnTeam = key.teamID
                }
            }
            context = decisionContext(credential: memo.credential, now: now)
        }
        let verdict = RequestDecider.decide(request, context: context, connection: &state.tokenState)

        var outcome = Outcome()
        // Handed over (`consume`), not copied: a verdict is a value of many reference-counted fields.
        switch consume verdict {
        case .rejected(let reason):
            outcome.reject(reason)
        case .accepted(let push):
            apply(push, request: request, outcome: &outcome, canDefer: relayAnswer != nil, claims: claims)
        }
        if !outcome.pendingClaims.isEmpty, let relayAnswer {
            claimThenAnswer(outcome.pendingClaims, request: request, connection: connection, afterRecording: afterRecording,
                            answer: relayAnswer)
            return PipelineResponse.placeholder
        }
        if outcome.status < 300, recorder.cannotRecord {
            outcome.refuseUnrecordable()
        }

        var streamLimit: UInt32?
        if state.certificate == nil, !state.succeeded {
            if outcome.status < 300 {
                state.tokenState.recordSuccess()
                state.succeeded = true
                if state.limitedToOne { streamLimit = configuration.maxConcurrentStreams }
            } else if !state.limitedToOne {
                state.limitedToOne = true
                streamLimit = 1
            }
        }
        let deviceToken = Self.deviceToken(in: request.path, routed: outcome.route)
        return respond(outcome, request: request, deviceToken: deviceToken,
                       connection: connection, authentication: authentication, streamLimit: streamLimit,
                       churnTeam: state.churnTeam, afterRecording: afterRecording, relayAnswer: relayAnswer)
    }

    /// What `RequestDecider` needs to know besides the request.
    @inline(__always)
    private func decisionContext(credential: ProviderCredential, now: Int64) -> DecisionContext {
        DecisionContext(environment: configuration.environment, credential: credential, now: now,
                        environmentKeyReason: configuration.environmentKeyReason)
    }
}
