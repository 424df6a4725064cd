/// Why the device registry would not store a state: it is full, or the state is outside the mock's bounds.
///
/// The registry is bounded so that no client of the control plane (or a `--devices` file) can grow the mock's
/// memory without limit; deleting a device frees its room.
public enum DeviceRegistryError: Error, Equatable, CustomStringConvertible {
    /// The registry already holds `limit` devices and the token is not one of them.
    case full(limit: Int)
    /// The `topics` states together would list more than `limit` topics.
    case topicsFull(limit: Int)
    /// The `rateLimited` states' `max` together would pass `limit` remembered pushes.
    case ratePushesFull(limit: Int)
    /// The token or state is outside the bounds (token length, topics, rate limit); the sentence says which.
    case outOfBounds(String)

    /// A sentence saying what went wrong and what to do about it.
    public var description: String {
        switch self {
        case .full(let limit):
            return "The device registry is full: it holds at most \(limit) devices. Delete some first "
                + "(DELETE /api/v1/devices/{token}, or DELETE /api/v1/devices for all); unknown tokens are live devices anyway."
        case .topicsFull(let limit):
            return "The device registry is full: its topics states list at most \(limit) topics together. Delete some "
                + "devices first (DELETE /api/v1/devices/{token}, or DELETE /api/v1/devices for all), or list fewer topics."
        case .ratePushesFull(let limit):
            return "The device registry is full: its rateLimited states' \"max\" add up to at most \(limit). Delete some "
                + "devices first (DELETE /api/v1/devices/{token}, or DELETE /api/v1/devices for all), or use smaller limits."
        case .outOfBounds(let why):
            return "The device state is outside the mock's bounds: \(why)."
        }
    }
}
