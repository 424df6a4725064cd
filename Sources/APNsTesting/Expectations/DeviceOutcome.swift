import APNsModel
import DeviceSimulation

/// What a test expects an iPhone to do with a push, checked with the delivery simulator (device-rules §1–§10).
public enum DeviceOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The app draws an in-app notification instead of a system banner; each given style field must match
    /// (colours compare case-insensitively), nil fields are not checked.
    case presentsInApp(symbol: String? = nil, color: String? = nil, size: InAppStyle.Size? = nil,
                       haptics: InAppStyle.Haptics? = nil)
    /// The system shows a banner.
    case showsBanner
    /// The notification goes to Notification Center only (e.g. provisional authorization).
    case appearsInNotificationCenterOnly
    /// Nothing is shown and the app's background callback (`didReceiveRemoteNotification`) runs.
    case wakesAppSilently
    /// Nothing is shown and no code of the app runs.
    case isDropped
    /// The Notification Service Extension runs.
    case runsServiceExtension

    /// Whether `simulation` shows this outcome (an `unknown` simulation never does).
    public func matches(_ simulation: Simulation) -> Bool {
        guard simulation.unknown == nil else { return false }
        let kind = simulation.presentation.kind
        switch self {
        case let .presentsInApp(symbol, color, size, haptics):
            guard kind == .inApp, let style = simulation.presentation.style else { return false }
            if let symbol, symbol != style.symbol { return false }
            if let color, color.lowercased() != style.color.lowercased() { return false }
            if let size, size != style.size { return false }
            if let haptics, haptics != style.haptics { return false }
            return true
        case .showsBanner:
            return kind == .banner
        case .appearsInNotificationCenterOnly:
            return kind == .list
        case .wakesAppSilently:
            return kind == .none && simulation.events.contains(.didReceiveRemoteNotification)
        case .isDropped:
            return kind == .none && simulation.events.isEmpty
        case .runsServiceExtension:
            return simulation.events.contains(.serviceExtension)
        }
    }

    /// The expectation in words, e.g. `presents in-app with symbol shippingbox, colour #34C759`.
    public var description: String {
        switch self {
        case let .presentsInApp(symbol, color, size, haptics):
            let fields = [symbol.map { "symbol \($0)" }, color.map { "colour \($0)" }, size.map { "size \($0.rawValue)" },
                          haptics.map { "haptics \($0.rawValue)" }].compactMap { $0 }
            return fields.isEmpty ? "presents in-app" : "presents in-app with " + fields.joined(separator: ", ")
        case .showsBanner: return "shows a banner"
        case .appearsInNotificationCenterOnly: return "appears in Notification Center only"
        case .wakesAppSilently: return "shows nothing and wakes the app"
        case .isDropped: return "is dropped (nothing shown, no app code runs)"
        case .runsServiceExtension: return "runs the service extension"
        }
    }

    /// A device in `state` with whatever this outcome needs switched on: in-app routing for
    /// `presentsInApp`, a Notification Service Extension for `runsServiceExtension`.
    public func typicalDevice(in state: AppState) -> DeviceProfile {
        var device = DeviceProfile(state: state)
        switch self {
        case .presentsInApp: device.inAppRouting = true
        case .runsServiceExtension: device.notificationServiceExtension = true
        default: break
        }
        return device
    }
}
