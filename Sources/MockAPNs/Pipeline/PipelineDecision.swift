import APNsModel

/// The pipeline's decision about one request: what the model's ``Verdict`` became once the fault plan, the device
/// registry and the channel registry had their say. The wire response (``PipelineResponse``) and the record
/// (`RecordedRequest.Response`) are both made from it, and from nothing else the decision path knows.
///
/// Each stage is a pure step on this value: the stage reads the shared state it needs (rules fired, a device's
/// registered answer, a channel) and the decision only combines what it is given.
struct PipelineDecision {
    var status = 200
    var reasonText: String?
    /// Milliseconds, for a 410's body (`timestamp`).
    var timestamp: Int64?
    var extraHeaders: [HeaderField] = []
    var body: [UInt8]?
    var firedFaults: [String] = []
    var disposition = PipelineDisposition.respond
    var delay: Duration?
    /// The endpoint the request addressed, accepted or rejected; nil when its path named none.
    var route: Route?
    /// The accepted push's payload, as the push holds it (nil: no push was accepted).
    var payload: PayloadSource?

    /// An answer not decided yet: a 200 with nothing to say, until ``reject(_:timestamp:)`` or ``accept(_:)``.
    init() {}

    /// Takes what the decision keeps of a push the model accepted (the later stages decide from here).
    mutating func accept(_ push: AcceptedPush) {
        route = push.route
        payload = push.payloadSource   // a device push's body text, not parsed here
    }

    /// Whether the request is still answered as the model decided it: no fault answered or broke it. Only then do
    /// the device registry and the channel registry decide.
    var stillDecided: Bool { reasonText == nil && disposition == .respond }

    mutating func reject(_ reason: APNsReason, timestamp: Int64? = nil) {
        status = reason.status
        reasonText = reason.rawValue
        self.timestamp = timestamp
    }

    /// Applies the fault rules that fired, in order: delays add up; the first status, stall, reset, GOAWAY or drop
    /// wins. `nowMillis` stamps a 410 a rule answers.
    mutating func apply(fired rules: [FaultRule], nowMillis: Int64) {
        var delayMillis = 0
        for rule in rules {
            firedFaults.append(rule.name)
            switch rule.action {
            case .delay(let ms):
                delayMillis += ms
            case .status(let status, let reason):
                guard disposition == .respond, reasonText == nil else { continue }
                self.status = status
                reasonText = reason
                if status == 410 { timestamp = nowMillis }
            case .stall:
                if disposition == .respond { disposition = .stall }
            case .reset(let code):
                if disposition == .respond { disposition = .abortStream(errorCode: code) }
            case .goAway(let reason, let code):
                if disposition == .respond {
                    disposition = .closeConnection(errorCode: code, reasonBody: Pipeline.reasonBody(reason, timestamp: nil))
                    status = APNsReason(rawValue: reason)?.status ?? 503
                    reasonText = reason
                }
            case .drop:
                if disposition == .respond { disposition = .dropConnection }
            case .fcmError:
                continue   // the FCM front door's; such a rule never matches an APNs request
            }
        }
        if delayMillis > 0 { delay = .milliseconds(delayMillis) }
    }

    /// Applies what the channel-management API answered.
    mutating func apply(_ answer: ChannelManagementHandler.Answer) {
        if let reason = answer.refusal {
            reject(reason)
            return
        }
        status = answer.status
        extraHeaders.append(contentsOf: answer.headers)
        body = answer.body
    }

    /// What a success becomes while the record file cannot be written: the mock claims no success it cannot
    /// keep a record of (APNs's own answer to a server-side failure).
    mutating func refuseUnrecordable() {
        reject(.internalServerError)
        extraHeaders = []
        body = nil
    }
}

extension Pipeline {
    /// The stages after the model accepted `push`, on `decision` (made from the push): the fault plan, then (if no
    /// fault answered) the device registry or the channel-management handler.
    ///
    /// With `canDefer`, counted rules shared through a store that match come back to be claimed first (and nothing
    /// is decided; the push is decided again from here with the store's answer in `claims`); nil otherwise.
    func decide(_ push: AcceptedPush, request: APNsRequest, into decision: inout PipelineDecision, canDefer: Bool,
                claims: [String: Bool]?) -> [(id: String, rule: FaultRule)]? {
        let firing = faults.fire(token: push.deviceToken, topic: push.topic, pushType: push.pushType.rawValue,
                                 path: request.path, canDefer: canDefer, claims: claims)
        guard firing.pending.isEmpty else { return firing.pending }
        if !firing.fired.isEmpty { decision.apply(fired: firing.fired, nowMillis: Timestamp.nowMillis()) }
        guard decision.stillDecided else { return nil }
        if case .device(let token) = push.route {
            if let (reason, timestamp) = devices.verdict(token: token, topic: push.topic, now: Timestamp.nowMillis()) {
                decision.reject(reason, timestamp: timestamp)
            }
        } else if let answer = channelManagement.answer(to: push, request: request) {
            decision.apply(answer)
        }
        return nil
    }
}
