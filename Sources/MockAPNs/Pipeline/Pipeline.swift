import APNsModel
import Foundation
import HTTP2

/// The mock's decision path, independent of any transport: authenticate → connection rules → validate
/// (all in `RequestDecider`) → fault plan → device registry or channel store → response → record.
///
/// HTTP/2 (`MockAPNsServer`) and the HTTP/1.1 endpoint both call it, so both answer and record alike.
/// `process` runs on the caller's thread and never blocks on I/O; delays are returned, not slept.
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

    /// Assembles a pipeline from its parts.
    public init(configuration: PipelineConfiguration, tokens: ProviderTokenAuthenticator,
                certificates: CertificateAuthenticator, recorder: Recorder, devices: DeviceRegistry = DeviceRegistry(),
                faults: FaultPlan = FaultPlan(), channels: ChannelStore = ChannelStore()) {
        self.configuration = configuration
        self.tokens = tokens
        self.certificates = certificates
        self.recorder = recorder
        self.devices = devices
        self.faults = faults
        self.channels = channels
        churn = ConnectionChurnMonitor(limit: configuration.newConnectionsPerSecondLimit)
    }

    /// Starts tracking a connection; a client certificate makes it certificate-authenticated for its life.
    /// A transport that keeps the returned handle and passes it in `PipelineConnection.handle` spares each request
    /// a lookup in the table every connection shares.
    @discardableResult
    public func connectionOpened(id: UInt64, certificateDER: [UInt8]?) -> PipelineConnectionHandle {
        let slot = makeSlot(certificateDER: certificateDER, now: Timestamp.nowSeconds())
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
        connections.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// How many connections were flagged as opening a new connection per push (`ConnectionChurnMonitor`).
    public var churnFlaggedConnections: Int { churn.flaggedConnections }

    /// How many connections are open (for metrics).
    public var openConnections: Int { connections.withLock { $0.count } }

    /// Decides, records and answers one request. Never blocks; a `delay` fault comes back in `delay`.
    public func process(_ request: APNsRequest, on connection: PipelineConnection) -> PipelineResponse {
        process(request, on: connection, afterRecording: nil)
    }

    /// `process`, handing the response to `answer`: at once, or (`--record-sync`) once the record's line is in the
    /// file, from the file writer's thread (`500 InternalServerError` instead when that record was lost).
    public func process(_ request: APNsRequest, on connection: PipelineConnection,
                        answer: @escaping @Sendable (PipelineResponse) -> Void) {
        guard recorder.writesBeforeAnswering else { return answer(process(request, on: connection, afterRecording: nil)) }
        _ = process(request, on: connection, afterRecording: answer)
    }

    private func process(_ request: APNsRequest, on connection: PipelineConnection,
                         afterRecording: (@Sendable (PipelineResponse) -> Void)?) -> PipelineResponse {
        let now = configuration.clock.nowSeconds()
        let slot = connection.handle ?? connections.withLock { $0[connection.id] } ?? adoptConnection(connection, now: now)
        // Requests of one connection are decided one at a time, each seeing the state the previous one left.
        return slot.state.withLock { state in
            process(request, on: connection, state: &state, now: now, afterRecording: afterRecording)
        }
    }

    /// `process` with the connection's state in hand.
    private func process(_ request: APNsRequest, on connection: PipelineConnection, state: inout PipelineConnectionState,
                         now: Int64, afterRecording: (@Sendable (PipelineResponse) -> Void)?) -> PipelineResponse {
        let credential: ProviderCredential
        if let certificate = state.certificate {
            credential = .certificate(certificate)   // APNs ignores `authorization` on certificate connections
        } else {
            credential = state.credential(authorization: request.value("authorization"), tokens: tokens)
        }
        if !state.churnCounted, case .token(let facts) = credential, let key = facts.key {
            state.churnCounted = true
            if churn.connectionAuthenticated(team: key.teamID, nowMillis: Timestamp.nowMillis()) { state.churnTeam = key.teamID }
        }
        let context = DecisionContext(environment: configuration.environment, credential: credential, now: now,
                                      environmentKeyReason: configuration.environmentKeyReason)
        let verdict = RequestDecider.decide(request, context: context, connection: &state.tokenState)

        var outcome = Outcome()
        switch verdict {
        case .rejected(let reason):
            outcome.reject(reason)
        case .accepted(let push):
            apply(push, request: request, now: now, outcome: &outcome)
        }
        if outcome.status < 300, recorder.fileIsUnwritable {
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
                       connection: connection, credential: credential, streamLimit: streamLimit,
                       churnTeam: state.churnTeam, afterRecording: afterRecording)
    }

    /// `process`, then waits out any `delay` fault: for transports that answer from a task (HTTP/1.1).
    public func handle(_ request: APNsRequest, connection: PipelineConnection) async -> PipelineResponse {
        let response = await withCheckedContinuation { continuation in
            process(request, on: connection) { continuation.resume(returning: $0) }
        }
        if let delay = response.delay { try? await Task.sleep(for: delay) }
        return response
    }

    // MARK: - After validation

    private struct Outcome {
        var status = 200
        var reason: APNsReason?
        var reasonText: String?
        var timestamp: Int64?
        var extraHeaders: [HeaderField] = []
        var body: [UInt8]?
        var firedFaults: [String] = []
        var disposition = PipelineDisposition.respond
        var delay: Duration?
        var route: Route?
        var payload: JSONValue?
        /// The accepted push's payload is exactly the request body's JSON (set instead of `payload`).
        var payloadIsBody = false
        var apnsID: String?
        var isBroadcast = false

        mutating func reject(_ reason: APNsReason, timestamp: Int64? = nil) {
            status = reason.status
            self.reason = reason
            reasonText = reason.rawValue
            self.timestamp = timestamp
        }

        /// What a success becomes while the record file cannot be written: the mock claims no success it cannot
        /// keep a record of (APNs's own answer to a server-side failure).
        mutating func refuseUnrecordable() {
            reject(.internalServerError)
            extraHeaders = []
            body = nil
        }
    }

    private func apply(_ push: AcceptedPush, request: APNsRequest, now: Int64, outcome: inout Outcome) {
        outcome.route = push.route
        if push.payloadIsBody {
            outcome.payloadIsBody = true   // recorded as the body's bytes; not parsed here
        } else {
            outcome.payload = push.payload
        }
        outcome.apnsID = push.apnsID
        let fired = faults.fire(token: push.deviceToken, topic: push.topic, pushType: push.pushType.rawValue, path: request.path)
        var delayMillis = 0
        for rule in fired {
            outcome.firedFaults.append(rule.name)
            switch rule.action {
            case .delay(let ms):
                delayMillis += ms
            case .status(let status, let reason):
                guard outcome.disposition == .respond, outcome.reasonText == nil else { continue }
                outcome.status = status
                outcome.reason = APNsReason(rawValue: reason)
                outcome.reasonText = reason
                if status == 410 { outcome.timestamp = Timestamp.nowMillis() }
            case .stall:
                if outcome.disposition == .respond { outcome.disposition = .stall }
            case .reset(let code):
                if outcome.disposition == .respond { outcome.disposition = .reset(errorCode: code) }
            case .goAway(let reason, let code):
                if outcome.disposition == .respond {
                    outcome.disposition = .goAway(errorCode: code, debugData: Self.reasonBody(reason, timestamp: nil))
                    outcome.status = APNsReason(rawValue: reason)?.status ?? 503
                    outcome.reason = APNsReason(rawValue: reason)
                    outcome.reasonText = reason
                }
            case .drop:
                if outcome.disposition == .respond { outcome.disposition = .drop }
            }
        }
        if delayMillis > 0 { outcome.delay = .milliseconds(delayMillis) }
        guard outcome.reasonText == nil, outcome.disposition == .respond else { return }

        switch push.route {
        case .device(let token):
            if let (reason, timestamp) = devices.verdict(token: token, topic: push.topic, now: Timestamp.nowMillis()) {
                outcome.reject(reason, timestamp: timestamp)
            }
        case .broadcast(let bundleID):
            outcome.isBroadcast = true
            guard let channelID = request.value("apns-channel-id"),
                  let channel = channels.channel(bundleID: bundleID, id: channelID) else {
                outcome.reject(.channelNotRegistered)
                return
            }
            if channel.messageStoragePolicy == 0, let expiration = push.expiration, expiration != 0 {
                outcome.reject(.badExpirationDate)   // a no-storage channel takes only expiration 0
            }
        case .channels(let bundleID):
            outcome.isBroadcast = true
            manageChannel(bundleID: bundleID, request: request, outcome: &outcome)
        case .allChannels(let bundleID):
            outcome.isBroadcast = true
            let ids = channels.all(bundleID: bundleID).map(JSONValue.string)
            outcome.body = Array(JSONValue.object([.init("channels", .array(ids))]).jsonText().utf8)
        }
    }

    private func manageChannel(bundleID: String, request: APNsRequest, outcome: inout Outcome) {
        switch request.method {
        case "POST":
            switch channels.create(bundleID: bundleID, body: request.body) {
            case .success(let channel):
                outcome.status = 201
                outcome.extraHeaders.append(HeaderField(name: "apns-channel-id", value: channel.id))
            case .failure(let reason):
                outcome.reject(reason)
            }
        case "GET":
            guard let id = request.value("apns-channel-id"), let channel = channels.channel(bundleID: bundleID, id: id) else {
                outcome.reject(.channelNotRegistered)
                return
            }
            let body = JSONValue.object([
                .init("message-storage-policy", .integer(Int64(channel.messageStoragePolicy))),
                .init("push-type", .string("LiveActivity")),
            ])
            outcome.body = Array(body.jsonText().utf8)
        case "DELETE":
            guard let id = request.value("apns-channel-id"), channels.delete(bundleID: bundleID, id: id) else {
                outcome.reject(.channelNotRegistered)
                return
            }
            outcome.status = 204
        default:
            outcome.reject(.methodNotAllowed)
        }
    }

    // MARK: - Response and record

    /// The response to `request`, after recording it. `deviceToken` is the token in its path.
    private func respond(_ outcome: Outcome, request recorded: APNsRequest, deviceToken: String?,
                         connection: PipelineConnection, credential: ProviderCredential,
                         streamLimit: UInt32?, churnTeam: String?,
                         afterRecording: (@Sendable (PipelineResponse) -> Void)?) -> PipelineResponse {
        var headers: [HeaderField] = []
        headers.reserveCapacity(3 + outcome.extraHeaders.count)   // one allocation: id, unique id, content type
        // Broadcast and channel-management answers carry `apns-request-id`, never `apns-id`, whether the request
        // was accepted or refused, also before its route was resolved (APNS-SPEC §1.2, §3.5): decided by path.
        let idHeader = outcome.isBroadcast || Self.isBroadcastAPI(path: recorded.path) ? "apns-request-id" : "apns-id"
        // Echoed as sent (clients match on it), else generated; the record keeps a generated ID as its bits.
        let apnsID: RecordedRequest.Response.IDSource
        if let sent = recorded.value(idHeader) {
            apnsID = .text(sent)
            headers.append(HeaderField(name: idHeader, value: sent))
        } else {
            let generated = APNsIDGenerator.nextID()
            apnsID = .generated(generated)
            headers.append(HeaderField(name: idHeader, value: generated.text))
        }
        var uniqueID = RecordedRequest.Response.IDSource.text(nil)
        if outcome.status == 200, configuration.environment == .development || outcome.route.map(Self.isBroadcastSend) == true {
            let generated = APNsIDGenerator.nextID()
            uniqueID = .generated(generated)
            headers.append(HeaderField(name: "apns-unique-id", value: generated.text))
        }
        headers.append(contentsOf: outcome.extraHeaders)
        var body: [UInt8] = []
        if let reasonText = outcome.reasonText, outcome.status >= 300 {
            body = Self.reasonBody(reasonText, timestamp: outcome.timestamp)
            headers.append(HeaderField(name: "content-type", value: "application/json"))
        } else if let payload = outcome.body {
            body = payload
            headers.append(HeaderField(name: "content-type", value: "application/json"))
        }

        let answered: Bool
        switch outcome.disposition {
        case .respond: answered = true
        case .goAway, .stall, .reset, .drop: answered = false
        }
        var faultsRecorded = outcome.firedFaults
        if faultsRecorded.isEmpty, outcome.disposition != .respond { faultsRecorded = ["fault"] }
        let elapsed = Int64((Timestamp.monotonicNanos() &- connection.receivedAtNanos) / 1000)
        let delayMicros = outcome.delay.map { Int64($0.components.seconds) * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000 } ?? 0
        let response = RecordedRequest.Response(
            status: answered ? outcome.status : 0, reason: outcome.reasonText, apnsID: answered ? apnsID : .text(nil),
            apnsUniqueID: answered ? uniqueID : .text(nil), timestamp: outcome.timestamp)
        var record = RecordedRequest(
            seq: 0, receivedAtMillis: Timestamp.nowMillis(), connectionID: connection.id,
            streamID: connection.streamID, remote: connection.remote, method: recorded.method, path: recorded.path,
            deviceToken: deviceToken, headers: recorded.headers, body: recorded.body,
            payloadSource: Self.payloadSource(outcome, body: recorded.body),
            payloadBytes: recorded.body.count, auth: Self.authentication(credential), response: response,
            faults: faultsRecorded, lint: [], durationMicros: elapsed + delayMicros)
        if let churnTeam {
            // Set here, the payload's own findings are not added later: compute them now (flagged connections only).
            record.lint = record.lintFindings() + [churn.finding(team: churnTeam)]
        }
        let pipelineResponse = PipelineResponse(status: outcome.status, headers: headers, body: body,
                                                disposition: outcome.disposition, delay: outcome.delay,
                                                streamLimit: streamLimit)
        if let afterRecording {
            recorder.store(record) { written in
                afterRecording(written ? pipelineResponse : pipelineResponse.unrecorded())
            }
        } else {
            recorder.store(record)
        }
        return pipelineResponse
    }

    /// How the record holds its payload: as the body's bytes alone (`.body`, parsed when read) when the payload is
    /// exactly `body` parsed — an accepted push whose payload is its body, or a request without a payload of its
    /// own whose non-empty body parses — else as the value (nil when the body is not JSON).
    private static func payloadSource(_ outcome: Outcome, body: [UInt8]) -> RecordedRequest.PayloadSource {
        if body.isEmpty { return .value(outcome.payload) }
        if outcome.payloadIsBody { return .body }
        if let payload = outcome.payload { return .value(payload) }
        return JSONValue.parseOutline(body) != nil ? .body : .value(nil)
    }

    /// Whether `path` is on the broadcast push (`/4/broadcasts/…`) or channel-management (`/1/apps/…`) API, whose
    /// answers identify themselves with `apns-request-id`.
    static func isBroadcastAPI(path: String) -> Bool {
        path.utf8.starts(with: "/4/broadcasts".utf8) || path.utf8.starts(with: "/1/apps".utf8)
    }

    private static func isBroadcastSend(_ route: Route) -> Bool {
        if case .broadcast = route { return true }
        return false
    }

    /// `{"reason":"…"}`, plus `"timestamp"` (ms) for 410s: APNs's error body.
    static func reasonBody(_ reason: String, timestamp: Int64?) -> [UInt8] {
        var members: [JSONValue.JSONMember] = [.init("reason", .string(reason))]
        if let timestamp { members.append(.init("timestamp", .integer(timestamp))) }
        return Array(JSONValue.object(members).jsonText().utf8)
    }

    /// `deviceToken(in: path)`, reusing the routed token's string when it is all of the path after
    /// `/3/device/` (no query), which it then equals.
    static func deviceToken(in path: String, routed route: Route?) -> String? {
        if case .device(let token)? = route, path.utf8.count == "/3/device/".utf8.count + token.utf8.count {
            return token
        }
        return deviceToken(in: path)
    }

    static func deviceToken(in path: String) -> String? {
        let prefix = "/3/device/"
        if path.utf8.allSatisfy({ $0 < 0x80 }) {
            // One byte per Character: the same answer from the bytes.
            guard path.utf8.count > prefix.utf8.count, path.utf8.starts(with: prefix.utf8) else { return nil }
            return String(Substring(path.utf8.dropFirst(prefix.utf8.count)))
        }
        guard path.hasPrefix(prefix), path.count > prefix.count else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    static func authentication(_ credential: ProviderCredential) -> RecordedRequest.Authentication {
        switch credential {
        case .none, .malformedToken:
            return RecordedRequest.Authentication(kind: credential == .none ? "none" : "token")
        case .token(let facts):
            var issuedAt: Int64?
            if case .seconds(let s) = facts.issuedAt { issuedAt = s }
            return RecordedRequest.Authentication(kind: "token", teamID: facts.issuer, keyID: facts.keyID, issuedAt: issuedAt)
        case .certificate(let facts):
            let topics = facts.topics.isEmpty ? (facts.subjectUID.map { [$0] } ?? []) : facts.topics.map(\.name)
            return RecordedRequest.Authentication(kind: "certificate", topics: topics)
        }
    }
}
