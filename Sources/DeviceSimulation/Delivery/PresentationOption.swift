import APNsModel
/// One of the options an app's `userNotificationCenter(_:willPresent:)` returns
/// (`UNNotificationPresentationOptions`).
public enum PresentationOption: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    /// Show a banner on screen.
    case banner
    /// Put the notification in Notification Center only.
    case list
    /// Play the payload's sound.
    case sound
    /// Apply the payload's badge.
    case badge

    /// Orders options by declaration, so sets encode the same way every time.
    public static func < (lhs: PresentationOption, rhs: PresentationOption) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
