import Foundation
import MockAPNs

/// Device-registry shortcuts: make a token answer like a real device that went away, moved or is throttled.
/// Tokens the mock was not told about are live devices (200).
extension APNsMock {
    /// `token` answers `410 Unregistered` (the app was removed), with `since` as the 410's timestamp
    /// (now when nil).
    public func unregister(token: String, since: Date? = nil) {
        let millis = since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        server.devices.set(token, .unregistered(timestamp: millis))
    }

    /// `token` answers `410 ExpiredToken`.
    public func expire(token: String) {
        server.devices.set(token, .expired)
    }

    /// `token` accepts only `topics`; any other topic gets `400 DeviceTokenNotForTopic`.
    public func restrict(token: String, toTopics topics: [String]) {
        server.devices.set(token, .topics(topics))
    }

    /// `token` belongs to the other environment: `400 BadDeviceToken`.
    public func moveToOtherEnvironment(token: String) {
        server.devices.set(token, .otherEnvironment)
    }

    /// After `max` pushes within `window`, `token` answers `429 TooManyRequests`.
    public func rateLimit(token: String, max: Int, per window: Duration = .seconds(60)) {
        server.devices.set(token, .rateLimited(max: max, windowSeconds: Swift.max(1, Int(window.components.seconds))))
    }

    /// Sets any device state for `token`.
    public func setDevice(_ token: String, _ state: DeviceState) {
        server.devices.set(token, state)
    }

    /// Makes `token` a live device again.
    public func restore(token: String) {
        server.devices.remove(token)
    }

    /// Every token with a state, keyed by lowercase token.
    public var devices: [String: DeviceState] { server.devices.all() }
}
