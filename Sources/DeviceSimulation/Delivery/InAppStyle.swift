import APNsModel
/// How the app draws an in-app notification that replaced a system banner (device-rules §4).
public struct InAppStyle: Sendable, Hashable, Codable {
    /// The symbol's size.
    public enum Size: String, CaseIterable, Sendable, Hashable, Codable {
        /// The default.
        case normal
        /// A smaller symbol.
        case compact
    }

    /// The haptic feedback played when the notification appears.
    public enum Haptics: String, CaseIterable, Sendable, Hashable, Codable {
        /// A success tap.
        case success
        /// A warning tap; the default.
        case warning
        /// An error tap.
        case error
    }

    /// SF Symbol name, from `inAppSymbol`.
    public var symbol: String
    /// The symbol's colour as sent in `inAppColor` (`#RRGGBB`).
    public var color: String
    /// From `inAppSize`; `normal` when absent or unknown.
    public var size: Size
    /// From `inAppHaptics`; `warning` when absent or unknown.
    public var haptics: Haptics

    /// Makes a style.
    public init(symbol: String, color: String, size: Size = .normal, haptics: Haptics = .warning) {
        self.symbol = symbol
        self.color = color
        self.size = size
        self.haptics = haptics
    }
}
