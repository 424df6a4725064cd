import APNsModel
import DeviceSimulation

extension Pipeline {
    /// Where a push goes under `--relay`.
    enum RelayChoice {
        /// Upstream, to this device; the upstream's answer reaches the transport through `completion`.
        case upstream(deviceToken: String, completion: @Sendable (PipelineResponse) -> Void)
        /// It stays with the mock, for this reason (the record says it).
        case skipped(String)
    }

    /// Where the push `record` records goes: upstream when it qualifies (``relaySkipReason(_:)``,
    /// ``relayMatchSkipReason(_:)``) and its answer may wait (`completion`).
    func relayChoice(_ outcome: PipelineDecision, record: borrowing RecordedRequest,
                     completion: (@Sendable (PipelineResponse) -> Void)?) -> RelayChoice {
        if let why = relaySkipReason(outcome) { return .skipped(why) }
        guard let completion, let deviceToken = record.deviceToken else {
            return .skipped("not relayed: only device pushes (/3/device/…) are relayed")
        }
        if let why = relayMatchSkipReason(record) { return .skipped(why) }
        return .upstream(deviceToken: deviceToken, completion: completion)
    }

    /// Why `outcome` is not sent upstream, or nil when it is: only device pushes the mock itself accepted (or, with
    /// `relaysRejected`, rejected) and answers at once are relayed, so a broken sender does not hammer the upstream
    /// with what the mock refuses.
    func relaySkipReason(_ outcome: PipelineDecision) -> String? {
        guard case .device? = outcome.route else { return "not relayed: only device pushes (/3/device/…) are relayed" }
        if outcome.status != 200, configuration.relay?.relaysRejected != true {
            return "not relayed: the mock rejected it (\(outcome.status) \(outcome.reasonText ?? "no reason"))"
        }
        if outcome.disposition != .respond || outcome.delay != nil || !outcome.firedFaults.isEmpty {
            return "not relayed: a fault rule fired on the mock (\(outcome.firedFaults.joined(separator: ", ")))"
        }
        return nil
    }

    /// Why `record` is not sent upstream under `--relay-match`, or nil when it matches (or there is no query).
    func relayMatchSkipReason(_ record: borrowing RecordedRequest) -> String? {
        guard let match = configuration.relay?.match, !match.terms.isEmpty, !match.matches(record) else { return nil }
        return "not relayed: it does not match --relay-match"
    }

    /// Sends the push of `record` upstream from a task of its own, then records it with both verdicts and hands
    /// `answer` the upstream's answer (after the record's line is written under `--record-sync`). The caller's
    /// thread (an event loop) only starts the task.
    func relayThenAnswer(_ record: consuming RecordedRequest, through relay: any PushRelay, deviceToken: String,
                         mockAnswer: PipelineResponse, receivedAtNanos: UInt64,
                         answer: @escaping @Sendable (PipelineResponse) -> Void) {
        let push = RelayedPush(deviceToken: deviceToken, headers: record.headers, body: record.body,
                               certificateAuthenticated: record.auth.kind == "certificate")
        Task { [record] in
            let verdict = await relay.relay(push)
            var relayed = record
            relayed.relay = verdict
            if configuration.relay?.recordsCredentials != true { Self.removeTokenSignature(from: &relayed.headers) }
            relayed.durationMicros = Int64((Timestamp.monotonicNanos() &- receivedAtNanos) / 1000)
            let disagreement = RelayVerdict.disagreement(mock: relayed.response, upstream: verdict)
            relayStatistics.count(verdict, disagreed: disagreement != nil)
            // The connection's finding follows the payload's and this one when the record is read.
            if let disagreement { relayed.lint = relayed.payloadFindings() + [disagreement] }
            let response = Self.relayedResponse(verdict, mockAnswer: mockAnswer)
            if recorder.writesBeforeAnswering {
                recorder.appendNumbered(relayed, whenWritten: { written in answer(written ? response : response.unrecorded()) })
            } else {
                recorder.appendNumbered(relayed, whenWritten: nil)
                answer(response)
            }
        }
    }

    /// Cuts the signature off a provider token in `headers` (`bearer <header>.<claims>.<signature>` becomes
    /// `bearer <header>.<claims>.`): the token stays readable (key, team, issue time) but can no longer be replayed
    /// against a real APNs by whoever reads the record.
    static func removeTokenSignature(from headers: inout [HeaderField]) {
        for index in headers.indices where headers[index].name == "authorization" {
            let value = headers[index].value
            guard let lastDot = value.lastIndex(of: "."), value.index(after: lastDot) < value.endIndex else { continue }
            headers[index].value = String(value[...lastDot])
        }
    }

    /// What the sender gets for a relayed push: the upstream's status, IDs, reason and 410 timestamp (`503
    /// ServiceUnavailable` when it gave no answer); the mock's `apns-id` when the upstream sent none.
    static func relayedResponse(_ verdict: RelayVerdict, mockAnswer: PipelineResponse) -> PipelineResponse {
        var headers: [HeaderField] = []
        if let id = verdict.apnsID ?? mockAnswer.headers.first(where: { $0.name == "apns-id" })?.value {
            headers.append(HeaderField(name: "apns-id", value: id, valueIsUnique: true))
        }
        if let unique = verdict.apnsUniqueID { headers.append(HeaderField(name: "apns-unique-id", value: unique, valueIsUnique: true)) }
        var body: [UInt8] = []
        if verdict.status >= 300 {
            body = reasonBody(verdict.reason ?? APNsReason.serviceUnavailable.rawValue, timestamp: verdict.timestamp)
            headers.append(HeaderField(name: "content-type", value: "application/json"))
        }
        return PipelineResponse(status: verdict.status, headers: headers, body: body, disposition: .respond,
                                delay: nil, streamLimit: mockAnswer.streamLimit)
    }
}
