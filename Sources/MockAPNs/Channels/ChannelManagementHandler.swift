import APNsModel

/// The broadcast side of the decision path: the channel-management API (`/1/apps/<bundle>/channels` create, read,
/// delete; `/1/apps/<bundle>/all-channels`) and the channel check of a broadcast push (`/4/broadcasts/apps/<bundle>`),
/// answered from the ``ChannelRegistry``.
///
/// Runs only for requests the model accepted and no fault answered; what it returns is folded into the pipeline's
/// decision like a device's registered answer.
struct ChannelManagementHandler: Sendable {
    /// The channels every broadcast and management request reads and changes.
    let channels: ChannelRegistry

    /// What a channel request is answered: a refusal, or a status with the header and body it carries.
    struct Answer {
        /// The reason APNs refuses it with; the rest is then unused.
        var refusal: APNsReason?
        var status = 200
        var headers: [HeaderField] = []
        var body: [UInt8]?

        static func refused(_ reason: APNsReason) -> Answer { Answer(refusal: reason) }
    }

    /// The answer to an accepted request on a broadcast route (`push`: what the model accepted, its expiration and a
    /// created channel's storage policy among it); nil for a device push.
    func answer(to push: AcceptedPush, request: APNsRequest) -> Answer? {
        switch push.route {
        case .device:
            return nil
        case .broadcast(let bundleID):
            return checkBroadcast(bundleID: bundleID, request: request, expiration: push.expiration)
        case .channels(let bundleID):
            return manage(bundleID: bundleID, messageStoragePolicy: push.messageStoragePolicy, request: request)
        case .allChannels(let bundleID):
            let ids = channels.all(bundleID: bundleID).map(JSONValue.string)
            return Answer(body: Array(JSONValue.object([.init("channels", .array(ids))]).jsonText().utf8))
        }
    }

    /// A broadcast push is sent only to a channel that exists; a no-storage channel takes only expiration 0.
    private func checkBroadcast(bundleID: String, request: APNsRequest, expiration: Int64?) -> Answer {
        guard let channelID = request.value("apns-channel-id"),
              let channel = channels.channel(bundleID: bundleID, id: channelID) else {
            return .refused(.channelNotRegistered)
        }
        if channel.messageStoragePolicy == 0, let expiration, expiration != 0 { return .refused(.badExpirationDate) }
        return Answer()
    }

    /// Create (`POST`), read (`GET`) or delete (`DELETE`) one channel.
    private func manage(bundleID: String, messageStoragePolicy: Int?, request: APNsRequest) -> Answer {
        switch request.method {
        case "POST":
            // The model accepts no creation without a policy.
            guard let messageStoragePolicy else { return .refused(.badRequestParams) }
            switch channels.create(bundleID: bundleID, messageStoragePolicy: messageStoragePolicy) {
            case .success(let channel):
                return Answer(status: 201, headers: [HeaderField(name: "apns-channel-id", value: channel.id)])
            case .failure(let reason):
                return .refused(reason)
            }
        case "GET":
            guard let id = request.value("apns-channel-id"), let channel = channels.channel(bundleID: bundleID, id: id) else {
                return .refused(.channelNotRegistered)
            }
            let body = JSONValue.object([
                .init("message-storage-policy", .integer(Int64(channel.messageStoragePolicy))),
                .init("push-type", .string("LiveActivity")),
            ])
            return Answer(body: Array(body.jsonText().utf8))
        case "DELETE":
            guard let id = request.value("apns-channel-id"), channels.delete(bundleID: bundleID, id: id) else {
                return .refused(.channelNotRegistered)
            }
            return Answer(status: 204)
        default:
            return .refused(.methodNotAllowed)
        }
    }
}
