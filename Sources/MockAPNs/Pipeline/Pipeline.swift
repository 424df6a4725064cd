import APNsModel
import DeviceSimulation
import Logging
import Support

/// The mock's decision path, independent of any transport: authenticate → connection rules → validate
/// (all in `RequestDecider`) → fault plan → device registry or channel registry → response → record.
///
/// HTTP/2 (`APNsHTTP2Listener`) and the HTTP/1.1 endpoint both call its one entry, `process(_:on:later:)`, and branch
/// on its ``PipelineAnswer``, so both answer, relay and record alike. `process` runs on the caller's thread and never
/// blocks on I/O; delays are returned, not slept.
///
/// This file holds connection tracking, the entry point and the connection's stages (what the pipeline keeps of a
/// connection is in `PipelineConnection`); the fault plan, the device registry and the ``ChannelManagementHandler``
/// decide in `PipelineDecision`; the wire answer is made in `PipelineAnswer`, its record in `Pipeline+Recording`, and
/// a relayed push goes upstream in `Pipeline+Relay`.
package final class Pipeline: Sendable {
    /// Configuration in force (the mock's).
    package let configuration: MockConfiguration
    /// Every request ends up here.
    package let recorder: Recorder
    /// Devices that should not answer 200.
    package let devices: DeviceRegistry
    /// Scripted faults.
    package let faults: FaultPlan
    /// Broadcast channels.
    package let channels: ChannelRegistry
    /// Answers the channel-management API and checks a broadcast's channel, from `channels`.
    let channelManagement: ChannelManagementHandler
    private let tokens: ProviderTokenAuthenticator
    private let certificates: CertificateAuthenticator
    /// Every open connection's state, for transports that do not keep the handle (HTTP/1.1) and for counting.
    private let connections = Locked<[UInt64: PipelineConnectionHandle]>([:])
    /// Counts new token connections per team, to report senders that open one per push.
    let churn: ConnectionChurnMonitor
    /// Where accepted device pushes are sent on (`serve --relay`); nil = the mock answers everything itself.
    package let relay: (any PushRelay)?
    /// What the relay did, for `/metrics`.
    package let relayStatistics = RelayStatistics()
    /// Where the pipeline reports what no answer says (a shared fault that could not be claimed).
    let logger: Logger

    /// Assembles a pipeline from its parts; the relay is `configuration.relay`'s.
    package init(configuration: MockConfiguration, tokens: ProviderTokenAuthenticator,
                certificates: CertificateAuthenticator, recorder: Recorder, devices: DeviceRegistry = DeviceRegistry(),
                faults: FaultPlan = FaultPlan(), channels: ChannelRegistry = ChannelRegistry(),
                logger: Logger = Logger(label: "mockapns")) {
        self.configuration = configuration
        self.relay = configuration.relay?.upstream
        self.tokens = tokens
        self.certificates = certificates
        self.recorder = recorder
        self.devices = devices
        self.faults = faults
        self.channels = channels
        channelManagement = ChannelManagementHandler(channels: channels)
        self.logger = logger
        churn = ConnectionChurnMonitor(limit: configuration.newConnectionsPerSecondLimit, logger: logger)
    }

    /// Starts tracking a connection; a client certificate makes it certificate-authenticated for its life.
    /// A transport that keeps the returned handle and passes it in `PipelineConnection.handle` spares each request
    /// a lookup in the table every connection shares.
    /// `transport` says how connection churn reads the connection (see ``PipelineTransport``).
    /// `role` is what the port it came in on stands for (Apple's ports under `--apple-hosts`).
    @discardableResult
    package func connectionOpened(id: UInt64, certificateDER: [UInt8]?, transport: PipelineTransport = .http2,
                                 role: ListenerRole = .mock) -> PipelineConnectionHandle {
        let slot = makeSlot(certificateDER: certificateDER, now: Timestamp.nowSeconds(), role: role)
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
    private func makeSlot(certificateDER: [UInt8]?, now: Int64, role: ListenerRole = .mock) -> PipelineConnectionHandle {
        var state = PipelineConnectionState()
        if let der = certificateDER {
            state.certificate = certificates.facts(certificateDER: der, now: now)
        }
        return PipelineConnectionHandle(state, role: role)
    }

    /// Forgets a closed connection's state.
    package func connectionClosed(id: UInt64) {
        guard let slot = connections.withLock({ $0.removeValue(forKey: id) }) else { return }
        // An HTTP/1.1 connection's close lets the team's next new connection count as a replacement (churn).
        let team = slot.state.withLock { $0.transport == .http1 ? $0.churnCountedTeam : nil }
        if let team { churn.connectionClosed(team: team, nowMillis: Timestamp.nowMillis()) }
    }

    /// How many connections were flagged as opening a new connection per push (`ConnectionChurnMonitor`).
    package var churnFlaggedConnections: Int { churn.flaggedConnections }

    /// How many connections are open (for metrics).
    package var openConnections: Int { connections.withLock { $0.count } }

    /// Decides, records and answers one request: the one entry every transport calls. Never blocks; a `delay` fault
    /// comes back in the response's `delay`, for the transport to wait out.
    ///
    /// The answer is `.now` unless it has to wait for something off the caller's thread: the record's line written
    /// and committed (`--record-sync`), the upstream's answer (`--relay`), or the shared store's grant for a counted
    /// fault. Then it is `.later`, and the completion `later` gives is called once with the response, from the writer's
    /// thread or a task; the transport hops back to its own loop from there. `later` is evaluated only then, so a
    /// request answered now allocates no completion.
    ///
    /// The stages, each run once per request: ``admit(_:on:)`` (credential, connection rules, the model's
    /// `RequestDecider`, under the connection's lock), ``decide(_:request:into:canDefer:claims:)`` (faults, then
    /// devices or channels), then ``finish`` (the connection learns the answer; the wire response and the record).
    package func process(_ request: APNsRequest, on connection: PipelineConnection,
                        later: @autoclosure () -> @Sendable (PipelineResponse) -> Void) -> PipelineAnswer {
        let completion = answersLater ? later() : nil
        let (verdict, admission) = admit(request, on: connection)
        var decision = PipelineDecision()
        // Handed over (`consume`), not copied: a verdict is a value of many reference-counted fields.
        switch consume verdict {
        case .rejected(let reason, let route):
            decision.reject(reason)
            decision.route = route
        case .accepted(let push):
            decision.accept(push)
            if let pending = decide(push, request: request, into: &decision, canDefer: completion != nil, claims: nil) {
                // `canDefer` was true, so there is a completion.
                claimThenAnswer(pending, push: push, request: request, connection: connection, admission: admission,
                                completion: completion!)
                return .later
            }
        }
        return finish(decision, request: request, on: connection, admission: admission, completion: completion)
    }

    /// Whether an answer may come after `process` returns (`--record-sync`, `--relay`, counted faults shared
    /// through `--store`); otherwise every answer is `.now`.
    var answersLater: Bool { recorder.writesBeforeAnswering || relay != nil || faults.claimsCountsElsewhere }

    /// What the connection stage made of a request besides the model's verdict: what the record says of the
    /// connection, and whether the connection must still learn the answer.
    struct Admission: Sendable {
        /// How the record shows the request's credential.
        var authentication: RecordedRequest.Authentication
        /// The connection-churn finding, when the monitor flagged this connection (its records carry it).
        var churnFinding: LintFinding?
        /// The connection's state, when it must still learn this request's answer (a token connection before its
        /// first success: the stream limit follows the answer).
        var unsettled: PipelineConnectionHandle?
    }

    /// Stage one, under the connection's lock: the credential (cached per connection), connection churn, and the
    /// model's verdict with the connection's token state. Requests of one connection are admitted one at a time,
    /// each seeing the state the previous one left.
    private func admit(_ request: APNsRequest, on connection: PipelineConnection) -> (Verdict, Admission) {
        let now = configuration.clock.nowSeconds()
        let slot = connection.handle ?? connections.withLock { $0[connection.id] } ?? adoptConnection(connection, now: now)
        return slot.state.withLock { state in
            let context: DecisionContext
            let authentication: RecordedRequest.Authentication
            if let certificate = state.certificate {
                let credential = ProviderCredential.certificate(certificate)   // APNs ignores `authorization` on certificate connections
                authentication = state.certificateAuthentication(credential)
                context = decisionContext(credential: credential, now: now, connection: connection)
            } else {
                let memo = state.credential(authorization: request.value(lowercaseName: "authorization"), tokens: tokens)
                authentication = memo.authentication
                if !state.churnCounted, case .token(let facts) = memo.credential, let key = facts.key {
                    state.churnCounted = true
                    state.churnCountedTeam = key.teamID
                    if churn.connectionAuthenticated(team: key.teamID, nowMillis: Timestamp.nowMillis(), transport: state.transport) {
                        state.churnFinding = churn.finding(team: key.teamID)
                    }
                }
                context = decisionContext(credential: memo.credential, now: now, connection: connection)
            }
            let verdict = RequestDecider.decide(request, context: context, connection: &state.tokenState)
            let unsettled = state.certificate == nil && !state.succeeded
            return (verdict, Admission(authentication: authentication, churnFinding: state.churnFinding,
                                       unsettled: unsettled ? slot : nil))
        }
    }

    /// The stages after the decision: a success the record file cannot keep becomes a 500, the connection learns
    /// the answer, then the response and the record. `completion` is the transport's, when the answer may come later.
    private func finish(_ decision: consuming PipelineDecision, request: APNsRequest, on connection: PipelineConnection,
                        admission: Admission, completion: (@Sendable (PipelineResponse) -> Void)?) -> PipelineAnswer {
        if decision.status < 300, recorder.cannotRecord {
            decision.refuseUnrecordable()
        }
        let streamLimit = admission.unsettled.flatMap { settle($0, status: decision.status) }
        return respond(decision, request: request, connection: connection, admission: admission,
                       streamLimit: streamLimit, completion: completion)
    }

    /// Asks the shared store for the firings `pending` needs (off the event loop), then decides `push` again from the
    /// fault stage with the store's answer (its admission stands) and hands `completion` the response.
    private func claimThenAnswer(_ pending: [(id: String, rule: FaultRule)], push: AcceptedPush, request: APNsRequest,
                                 connection: PipelineConnection, admission: Admission,
                                 completion: @escaping @Sendable (PipelineResponse) -> Void) {
        Task {
            let (claims, failure) = await faults.claim(pending)
            if let failure { logger.warning("a counted fault did not fire", metadata: ["why": "\(failure)"]) }
            var decision = PipelineDecision()
            decision.accept(push)
            // With the store's answer in `claims`, no rule is left pending.
            _ = decide(push, request: request, into: &decision, canDefer: true, claims: claims)
            let answer = finish(decision, request: request, on: connection, admission: admission, completion: completion)
            if case .now(let response) = answer { completion(response) }
        }
    }

    /// The connection learns a token connection's answer before its first success (apns-rules §7): a success lifts
    /// a one-stream limit, a rejection imposes it. The stream limit to announce, if it changed.
    private func settle(_ slot: PipelineConnectionHandle, status: Int) -> UInt32? {
        slot.state.withLock { state in
            guard !state.succeeded else { return nil }
            if status < 300 {
                state.tokenState.recordSuccess()
                state.succeeded = true
                return state.limitedToOne ? configuration.maxConcurrentStreams : nil
            }
            guard !state.limitedToOne else { return nil }
            state.limitedToOne = true
            return 1
        }
    }

    /// What `RequestDecider` needs to know besides the request: the environment is the one the request's host
    /// implies, when it does (`--apple-hosts`).
    @inline(__always)
    private func decisionContext(credential: ProviderCredential, now: Int64, connection: PipelineConnection) -> DecisionContext {
        DecisionContext(environment: connection.environment ?? configuration.environment, credential: credential, now: now,
                        environmentKeyReason: configuration.environmentKeyReason, servedAPIs: connection.servedAPIs)
    }
}
