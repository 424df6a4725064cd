import APNsModel
/// What runs when the user taps a presented notification or one of its action buttons (device-rules §5).
///
/// Modelled apart from ``Simulation`` because a tap is a second, optional user action: the delivery
/// simulation says what was presented; this says what a tap on it runs.
public struct TapSimulation: Sendable, Hashable, Codable {
    /// `UNNotificationDefaultActionIdentifier`, the identifier of a tap on the notification itself.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

    /// The action the tap chose.
    public var actionIdentifier: String
    /// The handlers that run, in order.
    public var events: [DeliveryEvent]
    /// Explanations (nothing to tap, no action buttons, …).
    public var warnings: [String]
    /// Set when the model does not cover the case: the reason.
    public var unknown: String?

    /// Makes a tap simulation.
    public init(actionIdentifier: String, events: [DeliveryEvent] = [], warnings: [String] = [], unknown: String? = nil) {
        self.actionIdentifier = actionIdentifier
        self.events = events
        self.warnings = warnings
        self.unknown = unknown
    }
}

extension DeliverySimulator {
    /// What runs when the user taps the notification `input` produced on `device`.
    ///
    /// `actionIdentifier` is `nil` for a tap on the notification itself (the default action), or the identifier
    /// of one of the buttons of the payload's `category`. The app is launched first when it was `notRunning`
    /// or `forceQuit`; then `userNotificationCenter(_:didReceive:withCompletionHandler:)` runs. Only a
    /// `banner` or `list` presentation can be tapped; an in-app notification's tap is the app's own code
    /// (`unknown`), and nothing presented means nothing to tap.
    public static func simulateTap(
        _ input: SimulationInput, on device: DeviceProfile, actionIdentifier: String? = nil
    ) -> TapSimulation {
        var tap = TapSimulation(actionIdentifier: actionIdentifier ?? TapSimulation.defaultActionIdentifier)
        let delivery = simulate(input, on: device)
        if let reason = delivery.unknown {
            tap.unknown = reason
            return tap
        }
        let pushType = input.pushType ?? input.topic.flatMap(inferredPushType(topic:))
        if let pushType, pushType != .alert, pushType != .background {
            tap.unknown = "taps on \(pushType.rawValue) pushes are outside the model: rule 5 covers ordinary notifications"
            return tap
        }
        switch delivery.presentation.kind {
        case .none:
            tap.warnings.append("nothing was presented, so there is nothing to tap")
            return tap
        case .inApp:
            tap.unknown = "a tap on an in-app notification runs the app's own code, which the model does not cover"
            return tap
        case .banner, .list:
            break
        }
        if actionIdentifier != nil, input.payload.value(at: ["aps", "category"])?.stringValue == nil {
            tap.warnings.append("the payload has no category, so the notification has no action buttons to tap")
            return tap
        }
        if device.state == .notRunning || device.state == .forceQuit { tap.events.append(.launch) }
        tap.events.append(.didReceiveResponse)
        return tap
    }
}
