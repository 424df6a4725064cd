import APNsModel

extension Pipeline {
    /// The last stage: the wire response to `request` and its record, both made from `outcome`; then the record goes
    /// to the recorder, or the push to the relay. `deviceToken` is the token in its path; `authentication` is how the
    /// record shows the request's credential (`authentication(_:)`).
    ///
    /// `.later` when the answer waits for the record's write (`--record-sync`, `completion` then gets it) or for the
    /// upstream (`--relay`); `completion` is nil when nothing may wait.
    func respond(_ outcome: PipelineDecision, request recorded: APNsRequest, deviceToken: String?,
                 connection: PipelineConnection, authentication: RecordedRequest.Authentication,
                 streamLimit: UInt32?, churnTeam: String?,
                 completion: (@Sendable (PipelineResponse) -> Void)?) -> PipelineAnswer {
        var headers: [HeaderField] = []
        headers.reserveCapacity(3 + outcome.extraHeaders.count)   // one allocation: id, unique id, content type
        // Broadcast and channel-management answers carry `apns-request-id`, never `apns-id`, whether the request
        // was accepted or refused, also before its route was resolved (apns-rules §1.2, §3.5): decided by path (every
        // broadcast route is on one of these paths).
        let idField = Self.isBroadcastAPI(path: recorded.path) ? Self.requestIDField : Self.apnsIDField
        // Echoed as sent (clients match on it), else generated; the record keeps a generated ID as its bits.
        let apnsID: RecordedRequest.Response.IDSource
        if let sent = recorded.value(lowercaseName: idField.name) {
            apnsID = .text(sent)
            headers.append(Self.field(idField, value: sent))
        } else {
            let generated = APNsIDGenerator.nextID()
            apnsID = .generated(generated)
            headers.append(Self.field(idField, value: generated.text))
        }
        var uniqueID = RecordedRequest.Response.IDSource.text(nil)
        let environment = connection.environment ?? configuration.environment
        if outcome.status == 200, environment == .development || outcome.route.map(Self.isBroadcastSend) == true {
            let generated = APNsIDGenerator.nextID()
            uniqueID = .generated(generated)
            headers.append(Self.field(Self.uniqueIDField, value: generated.text))
        }
        headers.append(contentsOf: outcome.extraHeaders)
        var body: [UInt8] = []
        if let reasonText = outcome.reasonText, outcome.status >= 300 {
            body = Self.reasonBody(reasonText, timestamp: outcome.timestamp)
            headers.append(Self.contentTypeJSON)
        } else if let payload = outcome.body {
            body = payload
            headers.append(Self.contentTypeJSON)
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
        let pipelineResponse = PipelineResponse(status: outcome.status, headers: headers, body: body,
                                                disposition: outcome.disposition, delay: outcome.delay,
                                                streamLimit: streamLimit)
        var whenWritten: WriteCompletion?
        if let completion, recorder.writesBeforeAnswering {
            whenWritten = { written in completion(written ? pipelineResponse : pipelineResponse.unrecorded()) }
        }
        var relaySkipped = relay == nil ? nil : relaySkipReason(outcome)
        if let relay, relaySkipped == nil, let completion, let deviceToken {
            let record = self.record(
                of: recorded, on: connection, deviceToken: deviceToken,
                payloadSource: outcome.payload ?? .body(recorded.body),
                auth: authentication, response: response, faults: faultsRecorded, durationMicros: elapsed)
            relaySkipped = relayMatchSkipReason(record)
            if relaySkipped == nil {
                relayThenAnswer(record, through: relay, deviceToken: deviceToken, mockAnswer: pipelineResponse,
                                receivedAtNanos: connection.receivedAtNanos, churnTeam: churnTeam, answer: completion)
                return .later
            }
        }
        func record() -> RecordedRequest {
            var made = self.record(
                of: recorded, on: connection, deviceToken: deviceToken,
                payloadSource: outcome.payload ?? .body(recorded.body),
                auth: authentication, response: response, faults: faultsRecorded,
                durationMicros: elapsed + delayMicros)
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
        return whenWritten == nil ? .now(pipelineResponse) : .later
    }

    // The response's header fields by name, made once: `HeaderField(name:value:)` checks that a name is lowercase
    // (a scan of it) every time, and these names are constants.
    // The ID fields are new on every answer: marked so the HTTP/2 connection keeps them out of its HPACK table.
    private static let apnsIDField = HeaderField(lowercaseName: "apns-id", value: "", valueIsUnique: true)
    private static let requestIDField = HeaderField(lowercaseName: "apns-request-id", value: "", valueIsUnique: true)
    private static let uniqueIDField = HeaderField(lowercaseName: "apns-unique-id", value: "", valueIsUnique: true)
    private static let contentTypeJSON = HeaderField(name: "content-type", value: "application/json")

    /// `template` (a constant name) with `value`.
    @inline(__always)
    private static func field(_ template: HeaderField, value: String) -> HeaderField {
        var field = template
        field.value = value
        return field
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
            durationMicros: durationMicros, environment: connection.environment)
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
    public static func reasonBody(_ reason: String, timestamp: Int64?) -> [UInt8] {
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
