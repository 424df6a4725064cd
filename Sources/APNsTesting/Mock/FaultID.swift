/// Names a fault added to an `APNsMock`, for ``APNsMock/removeFault(_:)`` and ``APNsMock/timesFired(_:)``.
public struct FaultID: Sendable, Hashable, CustomStringConvertible {
    /// The fault plan's id, e.g. `f1`.
    public let rawValue: String

    /// Wraps a fault plan id.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The raw id.
    public var description: String { rawValue }
}
