/// Which of APNs's APIs a listener serves. The mock's own port serves all of them; under Apple's host names
/// (`serve --apple-hosts`) each port serves what Apple's does: pushes (device and broadcast) on 443 and 2197,
/// channel management on 2195 and 2196 only (apns-rules §1.1, §1.2).
public enum ServedAPIs: Sendable, Hashable {
    /// Every API on one port: the mock's own address.
    case all
    /// `/3/device/…` and `/4/broadcasts/…`: `api.push.apple.com` and the sandbox names.
    case push
    /// `/1/apps/…/channels` and `…/all-channels`: the `api-manage-broadcast` names.
    case channelManagement

    /// Whether a request for `route` is served here; one that is not gets `404 BadPath`, as a path the host does not
    /// serve would (reason chosen: Apple documents no answer for an API asked of the other API's host).
    public func serves(_ route: Route) -> Bool {
        switch (self, route) {
        case (.all, _): return true
        case (.push, .device), (.push, .broadcast): return true
        case (.channelManagement, .channels), (.channelManagement, .allChannels): return true
        default: return false
        }
    }
}
