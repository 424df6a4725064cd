import APNsModel
import DeviceSimulation

extension RecordedRequest {
    /// The status the sender was answered with: the upstream's when the push was relayed and it answered, else the
    /// mock's own.
    public var answeredStatus: Int {
        if let relay, relay.upstreamAnswered { return relay.status }
        return response.status
    }

    /// This record as an event on its device's timeline: a device push answered 200, read again by the rules that
    /// accepted it (``DeviceEvent/acceptedPush(_:apnsID:topic:at:)``) at the instant it was received. Nil for a
    /// rejected push or another route: APNs delivers only what it accepted.
    public func deviceEvent() -> DeviceEvent? {
        guard answeredStatus == 200, deviceToken != nil else { return nil }
        let request = APNsRequest(method: method, path: path, headers: headers, body: body)
        let apnsID = relay?.upstreamAnswered == true ? (relay?.apnsID ?? response.apnsID) : response.apnsID
        return DeviceEvent.acceptedPush(request, apnsID: apnsID, topic: auth.topics.first, at: receivedAtMillis)
    }
}
