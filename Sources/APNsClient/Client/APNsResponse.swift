/// APNs accepted the push.
public struct APNsResponse: Sendable, Hashable {
    /// The `apns-id` APNs echoed (the one the client sent, kept across retries).
    public var apnsID: String
    /// `apns-unique-id` (development environment only): look the push up in the Push Notifications Console.
    public var apnsUniqueID: String?
    /// How many attempts it took (1 = no retry).
    public var attempts: Int

    /// Creates a response.
    public init(apnsID: String, apnsUniqueID: String?, attempts: Int) {
        self.apnsID = apnsID
        self.apnsUniqueID = apnsUniqueID
        self.attempts = attempts
    }
}
