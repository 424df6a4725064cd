/// Apple's own APNs host names, for a mock that answers under them (`serve --apple-hosts`) so that a sender with
/// those names built in reaches it unmodified: which API each name serves, on which ports, and which environment it
/// implies (apns-rules §1.1, §1.2).
public enum AppleHost {
    /// The device and broadcast push hosts (ports 443 and 2197) and the environment each implies. Apple's pages name
    /// the sandbox both `api.sandbox…` (current) and `api.development…` (older, still the default of some clients).
    public static let push: [(name: String, environment: APNsEnvironment)] = [
        ("api.push.apple.com", .production),
        ("api.sandbox.push.apple.com", .development),
        ("api.development.push.apple.com", .development),
    ]

    /// The channel-management hosts, each on a port of its own: sandbox on 2195, production on 2196.
    public static let channelManagement: [(name: String, environment: APNsEnvironment, port: Int)] = [
        ("api-manage-broadcast.sandbox.push.apple.com", .development, 2195),
        ("api-manage-broadcast.push.apple.com", .production, 2196),
    ]

    /// The ports Apple serves pushes on.
    public static let pushPorts = [443, 2197]

    /// Every name, push hosts first: what the mock's certificate names under `--apple-hosts`.
    public static var names: [String] { push.map(\.name) + channelManagement.map(\.name) }

    /// The environment a push host in `authority` (the `:authority` a request carries, `host` or `host:port`, any
    /// case) implies; nil for any other name, which leaves the mock's configured environment in force.
    public static func pushEnvironment(authority: String?) -> APNsEnvironment? {
        guard let authority else { return nil }
        var host = Substring(authority)
        if let colon = host.lastIndex(of: ":"), !host.hasPrefix("[") { host = host[..<colon] }
        let name = ASCIIByte.lowercased(String(host))
        return push.first { $0.name == name }?.environment
    }
}
