import APNsModel

extension Pipeline {
    /// Channel management (`/1/apps/<bundle>/channels`): create, read or delete one channel.
    func manageChannel(bundleID: String, request: APNsRequest, outcome: inout Outcome) {
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
}
