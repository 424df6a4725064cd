import APNsModel
/// Where the app is when a push arrives (docs/device-rules.md#inputs).
public enum AppState: String, CaseIterable, Sendable, Hashable, Codable {
    /// On screen and active.
    case foreground
    /// Suspended in the background.
    case background
    /// Terminated by the system (not by the user); iOS may launch it into the background.
    case notRunning
    /// Swiped away by the user in the app switcher; iOS will not launch it for silent pushes.
    case forceQuit
}
