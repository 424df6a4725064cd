import APNsModel
extension SimulationInput {
    /// The per-push simulation's input for a push APNs accepted: its type, priority, topic, collapse ID and payload.
    ///
    /// A push type APNs inferred (no `apns-push-type` header) is passed as absent, so the simulator reads it again
    /// from the topic or payload and warns about the missing header, as it does for a recorded request.
    public init(push: AcceptedPush) {
        self.init(
            pushType: push.pushTypeInferred ? nil : push.pushType, priority: push.priority, topic: push.topic,
            collapseID: push.collapseID, payload: push.payload)
    }
}
