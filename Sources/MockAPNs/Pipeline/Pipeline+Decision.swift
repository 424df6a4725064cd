import APNsModel

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
