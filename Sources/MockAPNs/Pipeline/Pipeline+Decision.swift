import APNsModel

extension Pipeline {
    /// Fires the fault plan for an accepted push, then consults the device registry or the channel store. With
    /// `canDefer`, counted rules shared through a store are left in `outcome.pendingClaims` (nothing else is decided)
    /// unless `claims` holds the store's answer.
    func apply(_ push: AcceptedPush, request: APNsRequest, outcome: inout Outcome, canDefer: Bool = false,
               claims: [String: Bool]? = nil) {
        outcome.route = push.route
        outcome.payload = push.payloadSource   // a device push's body text, not parsed here
        outcome.apnsID = push.apnsID
        let firing = faults.fire(token: push.deviceToken, topic: push.topic, pushType: push.pushType.rawValue,
                                 path: request.path, canDefer: canDefer, claims: claims)
        guard firing.pending.isEmpty else {
            outcome.pendingClaims = firing.pending
            return
        }
        var delayMillis = 0
        for rule in firing.fired {
            outcome.firedFaults.append(rule.name)
            switch rule.action {
            case .delay(let ms):
                delayMillis += ms
            case .status(let status, let reason):
                guard outcome.disposition == .respond, outcome.reasonText == nil else { continue }
                outcome.status = status
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
}
