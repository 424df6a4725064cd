/// How much the device registry holds at most, so that no client of the control plane (or `--devices` file)
/// can grow the mock's memory without limit. Deleting a device gives its share back.
///
/// With the standard limits the registry's worst case stays near 150 MB: 100,000 devices with 512-character
/// tokens, 200,000 topics of 255 bytes, and a million remembered pushes for rate-limited tokens.
public struct DeviceRegistryLimits: Sendable, Equatable {
    /// Devices with a state.
    public var devices: Int
    /// Topics listed by `topics` states, over every device together.
    public var topics: Int
    /// The sum of `max` over `rateLimited` states: the registry remembers up to `max` push times per such device.
    public var ratePushes: Int

    /// The mock's limits: 100,000 devices, 200,000 topics, 1,000,000 remembered pushes.
    public static let standard = DeviceRegistryLimits(devices: 100_000, topics: 200_000, ratePushes: 1_000_000)

    /// Makes a set of limits (tests use small ones).
    public init(devices: Int, topics: Int, ratePushes: Int) {
        self.devices = devices
        self.topics = topics
        self.ratePushes = ratePushes
    }
}
