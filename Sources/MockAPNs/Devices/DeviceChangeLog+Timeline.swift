import APNsModel
import DeviceSimulation

extension DeviceChangeLog {
    /// The timeline of `token`: its changes recorded here and the pushes among `records` (any order) to the device's
    /// token or a related one (``relatedTokens(device:)``) that were answered 200, each at the instant it was received.
    public func timeline(token: String, records: [RecordedRequest]) -> DeviceTimeline {
        let key = token.lowercased()
        let tokens = Set([key] + relatedTokens(device: key))
        let pushes = records.lazy.filter { $0.deviceToken.map { tokens.contains($0.lowercased()) } ?? false }
            .compactMap { $0.deviceEvent() }
        return DeviceTimeline(settings: DeviceSettings(token: key), events: events(token: key) + pushes)
    }
}
