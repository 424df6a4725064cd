/// What a device push's headers say once every header rule passed: the push type (sent, not inferred), the topic,
/// and the optional headers parsed. A pure function of the header list and the credential, so a server may keep it
/// for a header list it sees again (`RepeatMemo`).
struct DeviceHeaderFacts: Sendable, Hashable {
    var pushType: PushType
    var topic: String
    var apnsID: String?
    var expiration: Int64?
    var priority: Priority
    var collapseID: String?
}
