import APNsModel
import DeviceSimulation

/// Device profiles and simulations in the words failure messages use.
enum DeliveryWords {
    /// E.g. `a background app with a service extension`.
    static func device(_ device: DeviceProfile) -> String {
        var text = "a \(stateWords(device.state)) app"
        var extras: [String] = []
        if device.inAppRouting { extras.append("in-app routing") }
        if device.notificationServiceExtension { extras.append("a service extension") }
        if !extras.isEmpty { text += " with " + extras.joined(separator: " and ") }
        if device.authorization != .authorized { text += ", notifications \(device.authorization.rawValue)" }
        if !device.backgroundModesRemoteNotification { text += ", no remote-notification background mode" }
        if device.foregroundPresentation == .noDelegate { text += ", no notification delegate" }
        return text
    }

    /// E.g. `shows a banner with sound, badge 1; runs the service extension` plus any warnings.
    static func simulation(_ simulation: Simulation) -> String {
        if let unknown = simulation.unknown { return "outside the delivery model: \(unknown)" }
        var text = presentation(simulation.presentation)
        text += simulation.events.isEmpty ? "; no app code runs" : "; " + simulation.events.map(event).joined(separator: ", then ")
        if !simulation.warnings.isEmpty { text += " (" + simulation.warnings.joined(separator: "; ") + ")" }
        return text
    }

    static func presentation(_ presentation: Presentation) -> String {
        switch presentation.kind {
        case .inApp:
            guard let style = presentation.style else { return "presents in-app" }
            return "presents in-app with symbol \(style.symbol), colour \(style.color), size \(style.size.rawValue), "
                + "haptics \(style.haptics.rawValue)"
        case .banner:
            return "shows a banner" + effects(presentation)
        case .list:
            return "appears in Notification Center only" + effects(presentation)
        case .none:
            return "shows nothing"
        }
    }

    static func effects(_ presentation: Presentation) -> String {
        var effects: [String] = []
        if presentation.sound { effects.append("sound") }
        if let badge = presentation.badge { effects.append("badge \(badge)") }
        return effects.isEmpty ? "" : " with " + effects.joined(separator: ", ")
    }

    static func event(_ event: DeliveryEvent) -> String {
        switch event {
        case .launch: return "launches the app"
        case .didReceiveRemoteNotification: return "wakes the app (didReceiveRemoteNotification)"
        case .serviceExtension: return "runs the service extension"
        case .willPresent: return "calls willPresent"
        default: return "runs \(event.handler)"
        }
    }

    static func stateWords(_ state: AppState) -> String {
        switch state {
        case .foreground: return "foreground"
        case .background: return "background"
        case .notRunning: return "not running"
        case .forceQuit: return "force-quit"
        }
    }
}
