import APNsModel
import DeviceSimulation

/// What one virtual device shows at an instant, and what happened to each of its pushes up to then
/// (``APNsMock/device(_:at:)``): the question a sender's author asks after a sequence of pushes — did the user see
/// "Order 42 shipped", or did the next update replace it?
///
/// ```swift
/// let phone = mock.device(token)
/// XCTAssertShown(phone, title: "Order 42 shipped")
/// #expect(phone.badge == 2)
/// #expect(phone.timeline.map(\.outcome) == [.delivered, .replaced, .delivered])
/// ```
public struct VirtualDevice: Sendable {
    /// The device token.
    public let token: String
    /// The whole screen (the control API's `/screen`).
    public let screen: DeviceScreen
    /// What happened to each push, oldest first, with the rule that decided (the control API's `/timeline`).
    public let timeline: [DeviceTimelineEntry]

    /// The lock screen and Notification Center, newest first.
    public var lockScreen: [DeviceNotification] { screen.notifications }
    /// The lock screen grouped by `thread-id`, as iOS stacks it.
    public var groups: [DeviceNotificationGroup] { screen.groups }
    /// The number on the app icon.
    public var badge: Int { screen.badge }
    /// The Live Activities, with their content state and whether they are stale, ended or dismissed.
    public var liveActivities: [DeviceLiveActivity] { screen.liveActivities }
    /// What APNs holds for the device while it is offline.
    public var stored: [DeviceStoredPush] { screen.stored }
    /// Whether the device is online.
    public var isOnline: Bool { screen.online }

    /// Whether the lock screen shows a notification with `title` (and `body`, when given).
    public func shows(title: String, body: String? = nil) -> Bool {
        lockScreen.contains { $0.title == title && (body == nil || $0.body == body) }
    }

    /// What the screen shows, one line per notification, for failure messages.
    public var summary: String {
        var lines = ["device \(token) (\(isOnline ? "online" : "offline"), badge \(badge)) shows:"]
        if lockScreen.isEmpty { lines.append("  nothing") }
        for item in lockScreen {
            let text = [item.title, item.body].compactMap { $0 }.joined(separator: " — ")
            let thread = item.threadID.map { " [thread \($0)]" } ?? ""
            lines.append("  \(text.isEmpty ? "(no text)" : text)\(thread)  apns-id \(item.apnsID ?? "-")")
        }
        if !stored.isEmpty { lines.append("APNs stores \(stored.count) push(es) for it while it is offline.") }
        let replaced = timeline.filter { $0.outcome != .delivered && $0.outcome != .stored }
        for entry in replaced.suffix(5) {
            lines.append("  \(entry.outcome.rawValue): \(entry.apnsID ?? "-") (\(entry.rule.rawValue)) \(entry.explanation)")
        }
        return lines.joined(separator: "\n")
    }

    /// Why `shows(title:body:)` is false, naming what was expected and what the screen shows; nil when it is true.
    func failureMessage(title: String, body: String?) -> String? {
        guard !shows(title: title, body: body) else { return nil }
        let expected = body.map { "\"\(title)\" — \"\($0)\"" } ?? "\"\(title)\""
        return "Expected the lock screen to show \(expected), but " + summary
    }
}
