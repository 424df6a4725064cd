import APNsModel
extension DeviceEvent {
    /// A device push APNs answered 200, as a timeline event: `request` (as recorded: method, path, headers, body) is
    /// read again by ``DevicePushRules``, the rules that made it, so the device sees exactly the push the server
    /// accepted, with every default filled in. The credential was accepted when the push was answered and is not
    /// checked again; `topic` stands in for a certificate's topic when the request had no `apns-topic`.
    ///
    /// `apnsID` is the ID the push was answered with (the server's generated one when the request had none); `time`
    /// is when it was received, in milliseconds since 1970. Nil when the request is not a device push the rules
    /// accept (a record of another route, or one a fault or the device registry turned into an error is not passed
    /// here by a caller that checks the answer first).
    public static func acceptedPush(_ request: APNsRequest, apnsID: String?, topic: String? = nil,
                                    at time: Int64) -> DeviceEvent? {
        guard case .success(.device(let token)) = Route.resolve(method: request.method, path: request.path) else {
            return nil
        }
        var request = request
        if let topic, request.value(lowercaseName: "apns-topic") == nil {
            request.headers.append(HeaderField(name: "apns-topic", value: topic))
        }
        let context = DecisionContext(environment: .development, credential: .none, now: time / 1000)
        guard var push = DevicePushRules.decide(request, token: token, context: context).accepted else { return nil }
        push.apnsID = apnsID ?? push.apnsID
        return .push(push, at: time)
    }
}
