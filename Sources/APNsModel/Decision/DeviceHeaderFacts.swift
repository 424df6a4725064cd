/// What a device push's headers say once every header rule passed: the push type (sent, not inferred), the topic,
/// and the optional headers parsed: a pure function of the header list and the credential.
struct DeviceHeaderFacts: Sendable, Hashable {
    var pushType: PushType
    var topic: String
    var apnsID: String?
    var expiration: Int64?
    var priority: Priority
    var collapseID: String?
}
