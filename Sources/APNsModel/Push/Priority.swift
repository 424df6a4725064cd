/// The values of the `apns-priority` header.
public enum Priority: Int, CaseIterable, Sendable, Hashable, Codable {
    /// `10`: deliver now. The default when the header is absent. An error for `background` pushes.
    case immediate = 10
    /// `5`: deliver with the device's power in mind; may be grouped or throttled. The only value for `background`.
    case considerPower = 5
    /// `1`: put power first and never wake the device.
    case prioritizePower = 1

    /// The priority APNs assumes when the request has no `apns-priority` header.
    public static let `default`: Priority = .immediate
}
