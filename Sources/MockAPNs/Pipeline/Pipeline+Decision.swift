import APNsModel

extension Pipeline {
    /// What deciding an accepted push came to: a decision, or counted fault rules shared through a store that must
    /// be claimed first (then the push is decided again from here, with the store's answer).
    enum AcceptedDecision {
        case decided(PipelineDecision)
        case claimFirst([(id: String, rule: FaultRule)])
    }

    /// The stages after the model accepted `push`: the fault plan, then (if no fault answered) the device registry or
    /// the channel-management handler. With `canDefer`, counted rules shared through a store come back to be
    /// claimed (nothing else is decided) unless `claims` holds the store's answer.
    func decide(_ push: AcceptedPush, request: APNsRequest, canDefer: Bool, claims: [String: Bool]?) -> AcceptedDecision {
        let firing = faults.fire(token: push.deviceToken, topic: push.topic, pushType: push.pushType.rawValue,
                                 path: request.path, canDefer: canDefer, claims: claims)
        guard firing.pending.isEmpty else { return .claimFirst(firing.pending) }
        var decision = PipelineDecision(accepted: push)
        if !firing.fired.isEmpty { decision.apply(fired: firing.fired, nowMillis: Timestamp.nowMillis()) }
        guard decision.stillDecided else { return .decided(decision) }
        if case .device(let token) = push.route {
            if let (reason, timestamp) = devices.verdict(token: token, topic: push.topic, now: Timestamp.nowMillis()) {
                decision.reject(reason, timestamp: timestamp)
            }
        } else if let answer = channelManagement.answer(route: push.route, expiration: push.expiration, request: request) {
            decision.apply(answer)
        }
        return .decided(decision)
    }
}
