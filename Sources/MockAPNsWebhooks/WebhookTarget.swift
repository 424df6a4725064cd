import APNsModel
import JSON
import Foundation
import MockAPNsRecording

/// One receiver of recorded pushes (`serve --webhook URL`): where to POST, which records (`--webhook-match`, the
/// dashboard's search grammar), how to sign them, and the bounds of its queue and retries.
///
/// Only the operator's flags make targets: the control API cannot, or it would be a tool to make the server call
/// any URL.
public struct WebhookTarget: Sendable {
    /// The URL posted to, without user and password (those go in ``basicAuthorization``).
    public var url: String
    /// `authorization: Basic …` made from the URL's user and password, if it had them.
    public var basicAuthorization: String?
    /// Which records are posted (empty: every one).
    public var match: SearchQuery
    /// The `--webhook-secret` each body is signed with, if any.
    public var secret: [UInt8]?
    /// How long one attempt may take, connecting included.
    public var timeout: Duration
    /// How many records may wait for this receiver; past that the oldest are dropped (and counted).
    public var queueLimit: Int
    /// How many attempts a record gets before it is given up on (counted as failed).
    public var maxAttempts: Int

    /// A target posting to `url` (http or https, with a host); throws a sentence naming what is wrong.
    public init(url text: String, match: SearchQuery = SearchQuery(), secret: [UInt8]? = nil, timeout: Duration = .seconds(5),
                queueLimit: Int = 10_000, maxAttempts: Int = 8) throws(WebhookTargetError) {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
            throw WebhookTargetError(url: Self.redacted(text), reason: "not an http:// or https:// URL with a host")
        }
        if let user = components.user {
            let pair = user.removingPercentEncoding.map { $0 + ":" + (components.password?.removingPercentEncoding ?? "") } ?? user
            basicAuthorization = "Basic " + Base64.encodedString(Array(pair.utf8), alphabet: .standard, padded: true)
            components.user = nil
            components.password = nil
        }
        guard let plain = components.string else {
            throw WebhookTargetError(url: Self.redacted(text), reason: "cannot be written without its credentials")
        }
        url = plain
        self.match = match
        self.secret = secret
        self.timeout = timeout
        self.queueLimit = max(1, queueLimit)
        self.maxAttempts = max(1, maxAttempts)
    }

    /// `text` with any user and password replaced, for messages and metrics labels.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.user != nil || components.password != nil else { return text }
        components.user = nil
        components.password = nil
        return components.string ?? "(a URL with credentials)"
    }
}

/// A `--webhook` URL that cannot be used, and why.
public struct WebhookTargetError: Error, CustomStringConvertible {
    /// The URL, without credentials.
    public let url: String
    /// What is wrong with it.
    public let reason: String

    public var description: String { "--webhook \(url): \(reason)" }
}
