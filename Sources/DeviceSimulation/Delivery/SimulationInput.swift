import APNsModel
/// The push being simulated: the headers that matter on the device, and the payload.
public struct SimulationInput: Sendable, Hashable {
    /// `apns-push-type`; `nil` when the header is absent (the type is then read from the topic's suffix,
    /// else from the payload: a silent push or an alert).
    public var pushType: PushType?
    /// `apns-priority`; `nil` when absent, which APNs treats as `10`.
    public var priority: Priority?
    /// `apns-topic`.
    public var topic: String?
    /// `apns-collapse-id`.
    public var collapseID: String?
    /// The request body.
    public var payload: JSONValue

    /// Makes an input; every header defaults to absent.
    public init(
        pushType: PushType? = nil,
        priority: Priority? = nil,
        topic: String? = nil,
        collapseID: String? = nil,
        payload: JSONValue
    ) {
        self.pushType = pushType
        self.priority = priority
        self.topic = topic
        self.collapseID = collapseID
        self.payload = payload
    }
}
