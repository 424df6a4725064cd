import APNsModel
/// What the device does with one push: the code that runs, what the user sees, and why.
///
/// Encodes as `{"presentation": {…}, "events": [{"handler", "process"}], "warnings": […]}`,
/// plus `"unknown"` only when set.
public struct Simulation: Sendable, Hashable, Codable {
    /// What the user sees and hears.
    public var presentation: Presentation
    /// The handlers that run, in order.
    public var events: [DeliveryEvent]
    /// Explanations of anything surprising (a dropped push, a downgraded interruption level, …).
    public var warnings: [String]
    /// Set when the model does not cover this case: the reason. The other fields then hold only what the
    /// model does know and must not be read as a prediction.
    public var unknown: String?

    /// Makes a simulation.
    public init(
        presentation: Presentation = .nothing,
        events: [DeliveryEvent] = [],
        warnings: [String] = [],
        unknown: String? = nil
    ) {
        self.presentation = presentation
        self.events = events
        self.warnings = warnings
        self.unknown = unknown
    }
}
