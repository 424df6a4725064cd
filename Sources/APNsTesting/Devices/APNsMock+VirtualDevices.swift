import APNsModel
import DeviceSimulation
import Foundation
import MockAPNs

/// Virtual devices over time: what a device shows after the pushes the mock accepted for it, and the changes a test
/// makes to it (online and offline, app state, settings, taps).
extension APNsMock {
    /// What `token`'s device shows at `at` (now on the mock's clock when nil), and its timeline up to then.
    public func device(_ token: String, at: Date? = nil) -> VirtualDevice {
        let instant = at.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? mock.clock.nowMillis()
        var records: [RecordedRequest] = []
        for each in [token] + mock.deviceChanges.relatedTokens(device: token) {
            records += mock.recorder.records(matching: RecordFilter(token: each))
        }
        let (screen, entries) = mock.deviceChanges.timeline(token: token, records: records).replay(until: instant)
        return VirtualDevice(token: token.lowercased(), screen: screen, timeline: entries)
    }

    /// Takes `token`'s device offline (APNs then stores one push per app for it) or back online (the stored push is
    /// delivered), now on the mock's clock.
    public func setOnline(_ online: Bool, token: String) {
        change(token, online ? .online : .offline)
    }

    /// Puts `token`'s app in `state` (foreground, background, notRunning, forceQuit) from now on.
    public func setAppState(_ state: AppState, token: String) {
        change(token, .appState(state))
    }

    /// Records any change of `token`'s device (a tap, new settings, a Live Activity token…) now on the mock's clock.
    public func change(_ token: String, _ change: DeviceChange) {
        let event = DeviceEvent.change(change, at: mock.clock.nowMillis())
        do {
            try mock.addDeviceChangeHere(event, token: token)
        } catch {
            // Only a test that changes more than DeviceChangeLog.maxDevices devices gets here: say so loudly.
            preconditionFailure("APNsMock.change: \(error)")
        }
    }
}
