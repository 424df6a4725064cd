import Foundation
import MockAPNs

/// Device-registry shortcuts: make a token answer like a real device that went away, moved or is throttled.
/// Tokens the mock was not told about are live devices (200).
extension APNsMock {
    /// `token` answers `410 Unregistered` (the app was removed), with `since` as the 410's timestamp
    /// (now when nil).
    public func unregister(token: String, since: Date? = nil) {
        let millis = since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        setState(token, .unregistered(timestamp: millis))
    }

    /// `token` answers `410 ExpiredToken`.
    public func expire(token: String) {
        setState(token, .expired)
    }

    /// `token` accepts only `topics`; any other topic gets `400 DeviceTokenNotForTopic`.
    public func restrict(token: String, toTopics topics: [String]) {
        setState(token, .topics(topics))
    }

    /// `token` belongs to the other environment: `400 BadDeviceToken`.
    public func moveToOtherEnvironment(token: String) {
        setState(token, .otherEnvironment)
    }

    /// After `max` pushes within `window`, `token` answers `429 TooManyRequests`.
    public func rateLimit(token: String, max: Int, per window: Duration = .seconds(60)) {
        setState(token, .rateLimited(max: max, windowSeconds: Swift.max(1, Int(window.components.seconds))))
    }

    /// Sets any device state for `token`.
    public func setDevice(_ token: String, _ state: DeviceState) {
        setState(token, state)
    }

    /// Makes `token` a live device again.
    public func restore(token: String) {
        mock.devices.remove(token)
    }

    /// Every token with a state, keyed by lowercase token.
    public var devices: [String: DeviceState] { mock.devices.all() }

    /// Sets `token`'s state, as `PUT /api/v1/devices/{token}` does (the in-process mock has no shared store). The
    /// registry's bounds (100,000 devices, 100 topics, rate limits up to 10,000 pushes a day) are far past what a
    /// test sets up; crossing them is a mistake in the test, reported as one.
    private func setState(_ token: String, _ state: DeviceState) {
        do {
            try mock.updateDeviceHere(token, DeviceUpdate(state: state))
        } catch {
            preconditionFailure("APNsMock: \(error)")
        }
    }
}
