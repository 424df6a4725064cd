import APNsModel
/// device-rules §10: pushes that go to their own system handler and are never presented as ordinary
/// alerts (except a Live Activity's `alert`).
enum SystemRouteDelivery {
    /// The keys a Live Activity push needs in `aps`, by event (apns-rules §4.8).
    static let liveActivityRequiredKeys: [String: [String]] = [
        "update": ["timestamp", "content-state"],
        "end": ["timestamp", "content-state"],
        "start": ["timestamp", "content-state", "attributes-type", "attributes", "alert"],
    ]

    /// A `liveactivity` push: ActivityKit applies it; its `alert`, if any, is presented.
    static func liveActivity(_ input: SimulationInput, on device: DeviceProfile) -> Simulation {
        var sim = Simulation()
        guard let aps = input.payload["aps"], let content = ApsFacts(aps: aps) else {
            sim.unknown = "Live Activity push without an aps dictionary"
            return sim
        }
        guard let event = aps["event"]?.stringValue, let required = liveActivityRequiredKeys[event] else {
            let shown = aps["event"].map { $0.stringValue.map { "\"\($0)\"" } ?? "(\($0.typeName))" } ?? "absent"
            sim.unknown = "Live Activity push with aps.event \(shown): the model knows start, update and end"
            return sim
        }
        let missing = required.filter { aps[$0] == nil }
        guard missing.isEmpty else {
            sim.warnings.append(
                "Live Activity \(event) ignored by ActivityKit: aps lacks \(missing.joined(separator: ", "))")
            return sim
        }
        switch event {
        case "start": sim.events.append(.liveActivityStart)
        case "end": sim.events.append(.liveActivityEnd)
        default: sim.events.append(.liveActivityUpdate)
        }
        guard content.hasVisibleAlert else { return sim }
        guard device.authorization == .authorized else {
            sim.unknown =
                "how notification permission \(device.authorization.rawValue) affects a Live Activity alert is not modelled"
            return sim
        }
        let alertSound = aps["alert"]?["sound"]?.stringValue.map { !$0.isEmpty } ?? false
        sim.presentation = Presentation(kind: .banner, sound: alertSound || content.playsSound)
        return sim
    }

    /// A `widgets` or `controls` push: WidgetKit reloads when `content-changed` is `true`.
    static func reload(_ input: SimulationInput, pushType: PushType) -> Simulation {
        var sim = Simulation()
        noteIgnoredAlert(input, pushType: pushType, into: &sim)
        guard input.payload.value(at: ["aps", "content-changed"]) == .bool(true) else {
            sim.warnings.append("\(pushType.rawValue) push ignored: aps.content-changed is not true")
            return sim
        }
        sim.events.append(pushType == .controls ? .controlReload : .widgetReload)
        return sim
    }

    /// A `voip` or `pushtotalk` push: PushKit / PushToTalk wake the app, launching it when needed.
    static func pushKit(_ input: SimulationInput, pushType: PushType, on device: DeviceProfile) -> Simulation {
        var sim = Simulation()
        noteIgnoredAlert(input, pushType: pushType, into: &sim)
        if device.state == .notRunning || device.state == .forceQuit { sim.events.append(.launch) }
        sim.events.append(pushType == .voip ? .voip : .pushToTalk)
        if pushType == .voip, !device.reportsIncomingCalls {
            sim.warnings.append(
                "the app does not report a call to CallKit for this VoIP push: iOS terminates it and may stop delivering VoIP pushes to it")
        }
        return sim
    }

    /// A `location` push: the Location Push Service Extension answers it.
    static func location(_ input: SimulationInput) -> Simulation {
        var sim = Simulation()
        noteIgnoredAlert(input, pushType: .location, into: &sim)
        sim.events.append(.locationPush)
        return sim
    }

    private static func noteIgnoredAlert(_ input: SimulationInput, pushType: PushType, into sim: inout Simulation) {
        let present = ["alert", "sound", "badge"].filter { input.payload.value(at: ["aps", $0]) != nil }
        guard !present.isEmpty else { return }
        sim.warnings.append(
            "\(pushType.rawValue) pushes are never presented as alerts: aps \(present.joined(separator: ", ")) ignored")
    }
}
