import APNsModel

extension Pipeline {
    /// The last stage: the wire answer to `request` (``wireAnswer(to:request:on:streamLimit:)``), then either the
    /// push goes upstream (``relayBranch(_:request:deviceToken:connection:authentication:answer:response:churnTeam:relay:completion:)``)
    /// or the record goes to the recorder. `deviceToken` is the token in its path; `authentication` is how the record
    /// shows the request's credential (`authentication(_:)`).
    ///
    /// `.later` when the answer waits for the record's write (`--record-sync`, `completion` then gets it) or for the
    /// upstream (`--relay`); `completion` is nil when nothing may wait.
    func respond(_ outcome: PipelineDecision, request recorded: APNsRequest, deviceToken: String?,
                 connection: PipelineConnection, authentication: RecordedRequest.Authentication,
                 streamLimit: UInt32?, churnTeam: String?,
                 completion: (@Sendable (PipelineResponse) -> Void)?) -> PipelineAnswer {
        let (answer, response) = wireAnswer(to: outcome, request: recorded, on: connection, streamLimit: streamLimit)
        var relaySkipped: String?
        if let relay {
            switch relayBranch(outcome, request: recorded, deviceToken: deviceToken, connection: connection,
                               authentication: authentication, answer: answer, response: response,
                               churnTeam: churnTeam, relay: relay, completion: completion) {
            case .relayed: return .later
            case .skipped(let why): relaySkipped = why
            }
        }
        var whenWritten: WriteCompletion?
        if let completion, recorder.writesBeforeAnswering {
            whenWritten = { written in completion(written ? answer : answer.unrecorded()) }
        }
        let delayMicros = outcome.delay.map { Int64($0.components.seconds) * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000 } ?? 0
        func record() -> RecordedRequest {
            var made = self.record(of: recorded, on: connection, deviceToken: deviceToken, outcome: outcome,
                                   auth: authentication, response: response, extraMicros: delayMicros)
            if let relaySkipped { made.relay = .notRelayed(relaySkipped) }
            return made
        }
        // The record goes to the recorder as the temporary it is built as, straight to the recorder's full entry
        // point: it is a large value of reference-counted fields, and held in a variable or passed through one more
        // call it was copied (and the copy destroyed) on the way.
        if let churnTeam {
            var flagged = record()
            // Set here, the payload's own findings are not added later: compute them now (flagged connections only).
            flagged.lint = flagged.lintFindings() + [churn.finding(team: churnTeam)]
            recorder.appendNumbered(flagged, whenWritten: whenWritten)
        } else {
            recorder.appendNumbered(record(), whenWritten: whenWritten)
        }
        return whenWritten == nil ? .now(answer) : .later
    }

    /// The record of a decided request: `outcome`'s payload and fired faults (a fault that broke the exchange with no
    /// rule name shows as `fault`), its time on the mock so far plus `extraMicros` (a delay still to be waited out).
    @inline(__always)
    func record(of request: APNsRequest, on connection: PipelineConnection, deviceToken: String?,
                outcome: PipelineDecision, auth: RecordedRequest.Authentication, response: RecordedRequest.Response,
                extraMicros: Int64) -> RecordedRequest {
        var faults = outcome.firedFaults
        if faults.isEmpty, outcome.disposition != .respond { faults = ["fault"] }
        let elapsed = Int64((Timestamp.monotonicNanos() &- connection.receivedAtNanos) / 1000)
        return record(of: request, on: connection, deviceToken: deviceToken,
                      payloadSource: outcome.payload ?? .body(request.body), auth: auth, response: response,
                      faults: faults, durationMicros: elapsed + extraMicros)
    }

    /// The record of `request` as received on `connection`: every answer, decided or refused, is built here, stamped
    /// with the mock's clock (so a moved clock moves device timelines with the token rules).
    /// Its `seq` is assigned by the recorder, which also adds the payload's lint findings.
    @inline(__always)
    func record(of request: APNsRequest, on connection: PipelineConnection, deviceToken: String?,
                       payloadSource: PayloadSource, auth: RecordedRequest.Authentication,
                       response: RecordedRequest.Response, faults: [String], durationMicros: Int64) -> RecordedRequest {
        RecordedRequest(
            seq: 0, receivedAtMillis: configuration.clock.nowMillis(), connectionID: connection.id,
            streamID: connection.streamID, remote: connection.remote, method: request.method, path: request.path,
            deviceToken: deviceToken, headers: request.headers, body: request.body, payloadSource: payloadSource,
            payloadBytes: request.body.count, auth: auth, response: response, faults: faults, lint: [],
            durationMicros: durationMicros, environment: connection.environment, fcm: connection.fcm)
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
