import FCMModel

/// What the FCM front door is (`serve --fcm`): where it listens, the projects it starts with, and how it treats
/// registration tokens it did not issue. The mock it delivers through is configured apart (`MockConfiguration`):
/// the front door adds a door, not a second mock.
public struct FCMConfiguration: Sendable {
    /// The address both of its ports bind. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// The mock's own FCM port (`--fcm-port`), for senders given a URL (Go's `option.WithEndpoint`); 0 picks a free
    /// one. Default 2199.
    public var port = FCMConfiguration.defaultPort
    /// The port Google's names are served on for senders with them built in (`--fcm-https-port`, 443 by default;
    /// 0 picks a free one); nil serves only ``port``. Both ports serve every API: the paths do not overlap.
    public var googlePort: Int? = 443
    /// The folder service accounts are kept in, so a file handed out once stays trusted across restarts; nil keeps
    /// them in memory only.
    public var dataDirectory: String?
    /// The project `serve --fcm` makes a service account for with no set-up (the ready file's `fcm_service_account`).
    public var defaultProject = FCMConfiguration.defaultProjectID
    /// Service-account files whose keys are trusted as they are (`--fcm-service-account FILE`): the public key only
    /// is kept.
    public var trustedServiceAccountFiles: [String] = []
    /// The APNs key each project's iOS messages are signed with (`--fcm-apns-key [PROJECT=]TEAM:KEY:PATH`); a key
    /// for `*` applies to every project without its own. Absent: the bundled test key.
    public var apnsKeys: [String: APNsSigningKeyFile] = [:]
    /// Treat a well-formed registration token the mock never issued as a live device of this platform
    /// (`--fcm-accept-any-token`) instead of answering 404 UNREGISTERED, as FCM does for a stale token.
    public var acceptAnyToken: FCMPlatform?
    /// The message size limits (fcm-rules §3.7).
    public var limits = FCMLimits()
    /// How many FCM records stay in memory.
    public var recordLimit = 10_000
    /// The largest request body read; past it, 400 (Google's "Request payload size exceeds the limit").
    public var maxBodyBytes = 256 * 1024
    /// How long a connection may stay silent, HTTP/2 or HTTP/1.1, before it is closed (Google documents none: the
    /// mock's choice, the APNs listener's hour).
    public var idleTimeout: Duration = .seconds(3600)

    /// The mock's own FCM port by default, beside the APNs endpoint's 2197 and the control plane's 2198.
    public static let defaultPort = 2199
    /// The project a fresh `serve --fcm` serves.
    public static let defaultProjectID = "mockapns-test"

    /// The defaults.
    public init() {}
}

/// `TEAM:KEY:PATH` of an APNs signing key (`.p8`).
public struct APNsSigningKeyFile: Sendable, Hashable {
    /// The team the key belongs to (the provider token's `iss`).
    public var teamID: String
    /// The key's id (the provider token's `kid`).
    public var keyID: String
    /// The `.p8` file.
    public var path: String

    /// A key file.
    public init(teamID: String, keyID: String, path: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.path = path
    }

    /// Parses `[PROJECT=]TEAM:KEY:PATH`; the project is `*` when none is given.
    public static func parse(_ argument: String) -> (project: String, key: APNsSigningKeyFile)? {
        var rest = Substring(argument)
        var project = "*"
        if let equals = rest.firstIndex(of: "="), !rest[..<equals].contains(":") {
            project = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
        }
        let parts = rest.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty, !project.isEmpty else { return nil }
        return (project, APNsSigningKeyFile(teamID: String(parts[0]), keyID: String(parts[1]), path: String(parts[2])))
    }
}
