import APNsModel
/// One piece of code that runs on the device because of the push, in order.
public struct DeliveryEvent: Sendable, Hashable, Codable {
    /// Which process runs the handler.
    public enum Process: String, CaseIterable, Sendable, Hashable, Codable {
        /// The app itself.
        case app
        /// One of the app's extensions (Notification Service, Location Push Service).
        case appExtension = "extension"
        /// The system, on the app's behalf (ActivityKit, WidgetKit).
        case system
    }

    /// The callback or system handler, named as in Apple's SDK.
    public var handler: String
    /// Which process runs it.
    public var process: Process

    /// Makes an event.
    public init(handler: String, process: Process) {
        self.handler = handler
        self.process = process
    }
}

extension DeliveryEvent {
    /// The app is launched (into the background) before it can handle the push.
    public static let launch = DeliveryEvent(
        handler: "application(_:didFinishLaunchingWithOptions:)", process: .app)
    /// Rule 1: the background-update callback.
    public static let didReceiveRemoteNotification = DeliveryEvent(
        handler: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", process: .app)
    /// Rule 2: the Notification Service Extension.
    public static let serviceExtension = DeliveryEvent(
        handler: "UNNotificationServiceExtension.didReceive(_:withContentHandler:)", process: .appExtension)
    /// Rule 3: the foreground presentation delegate.
    public static let willPresent = DeliveryEvent(
        handler: "userNotificationCenter(_:willPresent:withCompletionHandler:)", process: .app)
    /// Rule 5: the user tapped the notification or one of its actions.
    public static let didReceiveResponse = DeliveryEvent(
        handler: "userNotificationCenter(_:didReceive:withCompletionHandler:)", process: .app)
    /// Rule 10: a VoIP push.
    public static let voip = DeliveryEvent(
        handler: "PKPushRegistryDelegate.pushRegistry(_:didReceiveIncomingPushWith:for:completion:)", process: .app)
    /// Rule 10: a location query.
    public static let locationPush = DeliveryEvent(
        handler: "CLLocationPushServiceExtension.didReceiveLocationPushPayload(_:completion:)",
        process: .appExtension)
    /// Rule 10: a Push to Talk push.
    public static let pushToTalk = DeliveryEvent(
        handler: "PTChannelManagerDelegate.incomingPushResult(channelManager:channelUUID:pushPayload:)",
        process: .app)
    /// Rule 10: a Live Activity update.
    public static let liveActivityUpdate = DeliveryEvent(
        handler: "ActivityKit: update Live Activity content-state", process: .system)
    /// Rule 10: a Live Activity end.
    public static let liveActivityEnd = DeliveryEvent(
        handler: "ActivityKit: end Live Activity", process: .system)
    /// Rule 10: a Live Activity push-to-start.
    public static let liveActivityStart = DeliveryEvent(
        handler: "ActivityKit: start Live Activity (push-to-start)", process: .system)
    /// Rule 10: a widget reload.
    public static let widgetReload = DeliveryEvent(
        handler: "WidgetKit: reload widget timelines", process: .system)
    /// Rule 10: a Control Center control reload.
    public static let controlReload = DeliveryEvent(
        handler: "WidgetKit: reload controls", process: .system)
}
