import APNsCrypto
import APNsModel
import Foundation

/// The signing keys whose provider tokens the mock accepts, by key ID: the bundled test keys plus every
/// `--key-file TEAMID:KEYID:PATH[:development|production|both][:topic,topic…]` (a topic list makes it a
/// topic-specific key, see `TrustedKey`).
public struct TrustedKeyStore: Sendable {
    /// A trusted key: who it belongs to, where it is valid, and the public half that checks signatures.
    public struct Entry: Sendable {
        /// Team, key ID and environments.
        public var key: TrustedKey
        /// The public key that verifies ES256 signatures.
        public var publicKey: P256PublicKey
    }

    private var entries: [String: Entry] = [:]

    /// An empty store (trusts nothing).
    public init() {}

    /// Every trusted key, by key ID.
    public var keys: [String: Entry] { entries }

    /// The key with this `kid`, if trusted.
    public func entry(keyID: String) -> Entry? { entries[keyID] }

    /// Trusts a key.
    public mutating func add(_ key: TrustedKey, publicKey: P256PublicKey) {
        entries[key.keyID] = Entry(key: key, publicKey: publicKey)
    }

    /// Trusts a `.p8` (private key) or public-key PEM file for a team and key ID.
    public mutating func add(teamID: String, keyID: String, path: String, environments: Set<APNsEnvironment>,
                             topics: Set<String>? = nil) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path), let pem = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path)
        }
        let publicKey: P256PublicKey
        if let privateKey = try? P256PrivateKey(pemRepresentation: pem) {
            publicKey = privateKey.publicKey
        } else if let key = try? P256PublicKey(pemRepresentation: pem) {
            publicKey = key
        } else {
            throw .invalidKey("\(path) is not a P-256 private key (.p8) or public key in PEM form")
        }
        add(TrustedKey(teamID: teamID, keyID: keyID, environments: environments, topics: topics), publicKey: publicKey)
    }

    /// Parses and adds a `--key-file TEAMID:KEYID:PATH[:environment][:topic,topic…]` value. With four parts the
    /// fourth is an environment (`development`, `sandbox`, `production`, `both`) or else a topic list; with five,
    /// the environment (empty = both) then the topics.
    public mutating func add(keyFileArgument value: String) throws(ConfigurationError) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (3...5).contains(parts.count), !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .invalidKey("--key-file wants TEAMID:KEYID:PATH[:development|production|both][:topic,topic…], got \"\(value)\"")
        }
        var environment = "both"
        var topicList: String?
        if parts.count == 4 {
            if (try? Self.environments(parts[3])) != nil { environment = parts[3] } else { topicList = parts[3] }
        } else if parts.count == 5 {
            environment = parts[3].isEmpty ? "both" : parts[3]
            topicList = parts[4]
        }
        let topics = try topicList.map { list throws(ConfigurationError) -> Set<String> in try Self.topics(list) }
        try add(teamID: parts[0], keyID: parts[1], path: parts[2], environments: try Self.environments(environment), topics: topics)
    }

    /// A comma-separated topic list: at least one topic, each well formed.
    static func topics(_ list: String) throws(ConfigurationError) -> Set<String> {
        let topics = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !topics.isEmpty, topics.allSatisfy(TopicRules.isWellFormed) else {
            throw .invalidKey("a topic-specific key needs a comma-separated list of topics, got \"\(list)\"")
        }
        return Set(topics)
    }

    /// Adds every key listed in a `keys.json` (`[{"key_id","team_id","file","environment","topics"?}]`); files are
    /// relative to the JSON file's folder.
    public mutating func add(keysJSONAt path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        let json: JSONValue
        do { json = try JSONValue.parse(Array(data)) } catch { throw .invalidJSON(path, "\(error)") }
        guard case .array(let items) = json else { throw .invalidKey("\(path) must be a list of keys") }
        let folder = (path as NSString).deletingLastPathComponent
        for item in items {
            guard let keyID = item["key_id"]?.stringValue, let teamID = item["team_id"]?.stringValue,
                  let file = item["file"]?.stringValue else {
                throw .invalidKey("\(path): each key needs \"key_id\", \"team_id\" and \"file\"")
            }
            let environments = try Self.environments(item["environment"]?.stringValue ?? "both")
            var topics: Set<String>?
            if let list = item["topics"]?.arrayElements {
                topics = try Self.topics(list.compactMap(\.stringValue).joined(separator: ","))
            }
            try add(teamID: teamID, keyID: keyID, path: (folder as NSString).appendingPathComponent(file),
                    environments: environments, topics: topics)
        }
    }

    static func environments(_ text: String) throws(ConfigurationError) -> Set<APNsEnvironment> {
        switch text {
        case "both": return [.development, .production]
        case "development", "sandbox": return [.development]
        case "production": return [.production]
        default: throw .invalidKey("key environment must be development, production or both, got \"\(text)\"")
        }
    }
}
