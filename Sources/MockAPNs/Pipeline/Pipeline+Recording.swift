import APNsModel
import DeviceSimulation

extension Pipeline {
    /// The last stage: the wire answer to `request` (``wireAnswer(to:request:on:streamLimit:)``) and its record, made
    /// once; then either the push goes upstream with its record (``relayChoice(_:record:completion:)``) or the record
    /// goes to the recorder.
    ///
    /// `.later` when the answer waits for the record's write (`--record-sync`, `completion` then gets it) or for the
    /// upstream (`--relay`); `completion` is nil when nothing may wait.
    func respond(_ outcome: PipelineDecision, request: APNsRequest, connection: PipelineConnection,
                 admission: Admission, streamLimit: UInt32?,
                 completion: (@Sendable (PipelineResponse) -> Void)?) -> PipelineAnswer {
        let (answer, response) = wireAnswer(to: outcome, request: request, on: connection, streamLimit: streamLimit)
        var record = self.record(of: request, on: connection, outcome: outcome, admission: admission, response: response)
        if let relay {
            switch relayChoice(outcome, record: record, completion: completion) {
            case .skipped(let why):
                record.relay = .notRelayed(why)
            case .upstream(let deviceToken, let completion):
                relayThenAnswer(record, through: relay, deviceToken: deviceToken, mockAnswer: answer,
                                receivedAtNanos: connection.receivedAtNanos, answer: completion)
                return .later
            }
        }
        guard let completion, recorder.writesBeforeAnswering else {
            recorder.appendNumbered(record, whenWritten: nil)
            return .now(answer)
        }
        recorder.appendNumbered(record, whenWritten: { written in completion(written ? answer : answer.unrecorded()) })
        return .later
    }

    /// The record of a decided request: `outcome`'s route, payload and fired faults (a fault that broke the exchange
    /// with no rule name shows as `fault`), how `admission` saw the connection, and its time on the mock so far plus
    /// a delay still to be waited out.
    @inline(__always)
    func record(of request: APNsRequest, on connection: PipelineConnection, outcome: PipelineDecision,
                admission: Admission, response: RecordedRequest.Response) -> RecordedRequest {
        var faults = outcome.firedFaults
        if faults.isEmpty, outcome.disposition != .respond { faults = ["fault"] }
        let delayMicros = outcome.delay.map { Int64($0.components.seconds) * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000 } ?? 0
        let elapsed = Int64((Timestamp.monotonicNanos() &- connection.receivedAtNanos) / 1000)
        return record(of: request, on: connection, route: outcome.route,
                      payloadSource: outcome.payload ?? .body(request.body), auth: admission.authentication,
                      response: response, faults: faults, durationMicros: elapsed + delayMicros,
                      connectionFinding: admission.churnFinding)
    }

    /// Records a request the transport answered itself before the pipeline saw it (431: header list too large),
    /// with what was read of it, so a sender's worst mistakes leave a trace like every other answer.
    ///
    /// Nothing of it is decided: it is not authenticated (its token may be cut off), no fault fires, no state
    /// changes. APNs documents no reason for 431, so the record has none; its device token is the route's.
    package func recordRefused(_ request: APNsRequest, on connection: PipelineConnection, status: Int) {
        let elapsed = Int64((Timestamp.monotonicNanos() &- connection.receivedAtNanos) / 1000)
        let auth = RecordedRequest.Authentication(kind: request.value("authorization") == nil ? "none" : "token")
        let response = RecordedRequest.Response(status: status, reason: nil, apnsID: request.value("apns-id"))
        let route = try? Route.resolve(method: request.method, path: request.path).get()
        recorder.appendNumbered(record(
            of: request, on: connection, route: route, payloadSource: .body(request.body), auth: auth,
            response: response, faults: [], durationMicros: elapsed, connectionFinding: nil))
    }

    /// The record of `request` as received on `connection`: every answer, decided or refused, is built here, stamped
    /// with the mock's clock (so a moved clock moves device timelines with the token rules). Its device token is the
    /// one `route` names; a path that names no endpoint has none.
    /// Its `seq` is assigned by the recorder; the payload's lint findings are computed by whoever reads it.
    @inline(__always)
    private func record(of request: APNsRequest, on connection: PipelineConnection, route: Route?,
                        payloadSource: PayloadSource, auth: RecordedRequest.Authentication,
                        response: RecordedRequest.Response, faults: [String], durationMicros: Int64,
                        connectionFinding: LintFinding?) -> RecordedRequest {
        var deviceToken: String?
        if case .device(let token)? = route { deviceToken = token }
        return RecordedRequest(
            seq: 0, receivedAtMillis: configuration.clock.nowMillis(), connectionID: connection.id,
            streamID: connection.streamID, remote: connection.remote, method: request.method, path: request.path,
            deviceToken: deviceToken, headers: request.headers, body: request.body, payloadSource: payloadSource,
            payloadBytes: request.body.count, auth: auth, response: response, faults: faults, lint: [],
            durationMicros: durationMicros, environment: connection.environment, fcm: connection.fcm,
            connectionFinding: connectionFinding)
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
