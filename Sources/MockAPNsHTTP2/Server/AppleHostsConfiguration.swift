import APNsModel
import MockAPNs

/// The ports the mock listens on when it serves Apple's own host names (`serve --apple-hosts`), each settable and 0
/// for a free one: pushes on 443 (beside ``MockServerConfiguration/port``, Apple's 2197), channel management on 2195
/// (sandbox) and 2196 (production), as Apple serves them (apns-rules §1.1, §1.2).
public struct AppleHostsConfiguration: Sendable, Hashable {
    /// Apple's HTTPS port for pushes.
    public var httpsPort = 443
    /// `api-manage-broadcast.sandbox.push.apple.com`'s port.
    public var channelManagementSandboxPort = 2195
    /// `api-manage-broadcast.push.apple.com`'s port.
    public var channelManagementProductionPort = 2196

    /// Apple's ports.
    public init() {}

    /// The listeners beside the mock's own port, in the order the transport numbers them (1, 2, 3), with the role
    /// and the Apple port each stands for.
    public var extraListeners: [(port: Int, role: ListenerRole, applePort: Int)] {
        [(httpsPort, .applePush, 443),
         (channelManagementSandboxPort, .appleChannelManagement(.development), 2195),
         (channelManagementProductionPort, .appleChannelManagement(.production), 2196)]
    }
}
