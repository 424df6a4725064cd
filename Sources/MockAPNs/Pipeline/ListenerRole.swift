import APNsModel

/// What a listening port stands for: the mock's own address (every API, the configured environment), or one of
/// Apple's ports under `--apple-hosts`, where the port decides the API and the host name the environment.
public struct ListenerRole: Sendable, Hashable {
    /// Which APIs the port serves.
    public var servedAPIs: ServedAPIs
    /// The environment of every request on the port (channel management: 2195 is the sandbox, 2196 production);
    /// nil leaves it to the request's host name (``readsHostName``) or the configuration.
    public var environment: APNsEnvironment?
    /// Whether a request's `:authority` names its environment (Apple's push ports, 443 and 2197).
    public var readsHostName: Bool

    /// The mock's own address: every API, the configured environment.
    public static let mock = ListenerRole(servedAPIs: .all, environment: nil, readsHostName: false)
    /// Apple's push ports: device and broadcast pushes, the environment from the host name.
    public static let applePush = ListenerRole(servedAPIs: .push, environment: nil, readsHostName: true)

    /// Apple's channel-management port of `environment`.
    public static func appleChannelManagement(_ environment: APNsEnvironment) -> ListenerRole {
        ListenerRole(servedAPIs: .channelManagement, environment: environment, readsHostName: false)
    }

    /// The environment a request whose host name is `authority` (`:authority`, or a `host` header) has here;
    /// nil = the configured one.
    public func environment(authority: String?) -> APNsEnvironment? {
        readsHostName ? AppleHost.pushEnvironment(authority: authority) : environment
    }
}
