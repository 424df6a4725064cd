import APNsModel
/// What an iPhone does with a push (device-rules §1–§10): which code runs, what the user sees, and why.
///
/// Routing: Live Activity, widget, control, VoIP, location and Push to Talk pushes go to their system
/// handler (rule 10, `SystemRouteDelivery`); `alert`, `background` and untyped pushes follow rules 1–9
/// (`NotificationDelivery`). An absent `apns-push-type` is read from the topic's suffix when it has one.
/// `complication`, `fileprovider` and `mdm` pushes are outside the model and come back `unknown`.
///
/// Taps (rule 5) are a separate question, answered by ``simulateTap(_:on:actionIdentifier:)``.
public enum DeliverySimulator {
    /// What the device in `device` does when `input` arrives.
    public static func simulate(_ input: SimulationInput, on device: DeviceProfile) -> Simulation {
        guard input.payload.objectMembers != nil else {
            return Simulation(
                unknown: "the payload is a JSON \(input.payload.typeName), not an object: the model covers objects only")
        }
        var prefix: [String] = []
        var pushType = input.pushType
        if pushType == nil, let topic = input.topic, let inferred = inferredPushType(topic: topic) {
            pushType = inferred
            prefix.append("no apns-push-type: read as \(inferred.rawValue) from the topic's suffix")
        }
        var simulation: Simulation
        switch pushType {
        case .liveactivity?:
            simulation = SystemRouteDelivery.liveActivity(input, on: device)
        case .widgets?, .controls?:
            simulation = SystemRouteDelivery.reload(input, pushType: pushType ?? .widgets)
        case .voip?, .pushtotalk?:
            simulation = SystemRouteDelivery.pushKit(input, pushType: pushType ?? .voip, on: device)
        case .location?:
            simulation = SystemRouteDelivery.location(input)
        case .complication?, .fileprovider?, .mdm?:
            simulation = Simulation(
                unknown: "\(pushType?.rawValue ?? "") pushes are outside the delivery model (device-rules §10)")
        case .alert?, .background?, nil:
            simulation = NotificationDelivery.simulate(input, pushType: pushType, on: device)
        }
        simulation.warnings.insert(contentsOf: prefix, at: 0)
        return simulation
    }

    /// The push type whose topic suffix `topic` ends with, if any.
    static func inferredPushType(topic: String) -> PushType? {
        PushType.allCases.first { type in
            guard let suffix = type.topicSuffix else { return false }
            return topic.hasSuffix(suffix)
        }
    }
}
