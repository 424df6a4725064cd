import FCMModel
import Foundation
import Support

/// The platform an app instance runs on: where its messages go (fcm-rules §5, §6).
public enum FCMPlatform: String, Sendable, Hashable, CaseIterable, Codable {
    /// An iPhone app: its messages become APNs pushes to `apnsToken`.
    case ios
    /// An Android app: validated and recorded.
    case android
    /// A web app: validated and recorded.
    case web
}

/// One app instance's registration token, as the client SDK gets it from FCM: its project, its platform and, on iOS,
/// the APNs device token FCM delivers through (so the virtual iPhone the mock already has).
public struct FCMRegistration: Sendable, Hashable {
    /// The registration token (`<fid>:APA91b…`).
    public var token: String
    /// The Firebase installation id, the token's prefix.
    public var fid: String
    /// The project it was registered to.
    public var project: String
    /// Its platform.
    public var platform: FCMPlatform
    /// The app's bundle id (iOS: the APNs topic) or package name.
    public var bundleID: String
    /// iOS: the APNs device token (hex).
    public var apnsToken: String?
    /// The topics it is subscribed to.
    public var topics: Set<String> = []
}

/// Every registration token the mock issued, and the topics they are subscribed to. Bounded: past
/// ``maxRegistrations`` a registration is refused, and past ``maxTopicsPerRegistration`` a subscription.
public final class FCMRegistrations: Sendable {
    /// Registrations kept at most.
    public static let maxRegistrations = 100_000
    /// Topics one registration may have (Google's limit per app instance).
    public static let maxTopicsPerRegistration = 2_000

    private let tokens = Locked<[String: FCMRegistration]>([:])

    /// An empty registry.
    public init() {}

    /// Registers an app instance; an iOS one without `apnsToken` gets a fresh 32-byte one. Throws when the registry is
    /// full or the APNs token is not hex.
    public func register(project: String, platform: FCMPlatform, bundleID: String,
                         apnsToken: String?) throws(FCMSetupError) -> FCMRegistration {
        var random = SystemRandomNumberGenerator()
        var apns: String?
        if platform == .ios {
            if let given = apnsToken {
                guard !given.isEmpty, given.utf8.count % 2 == 0, given.utf8.count <= 200,
                      given.utf8.allSatisfy({ $0.isHexDigit }) else {
                    throw .badRegistration("\"apns_token\" must be an APNs device token: an even number of hex digits (64 for a real iPhone)")
                }
                apns = given.lowercased()
            } else {
                apns = randomHex(bytes: 32)
            }
        } else if apnsToken != nil {
            throw .badRegistration("\"apns_token\" goes with \"platform\": \"ios\" only")
        }
        let minted = FCMRegistrationToken.mint(using: &random)
        let registration = FCMRegistration(token: minted.token, fid: minted.fid, project: project, platform: platform,
                                           bundleID: bundleID, apnsToken: apns)
        try tokens.withLock { (tokens) throws(FCMSetupError) in
            guard tokens.count < Self.maxRegistrations else {
                throw .badRegistration("the mock holds \(Self.maxRegistrations) registrations already: restart it or use fewer")
            }
            tokens[registration.token] = registration
        }
        return registration
    }

    /// Keeps `registration` under its token (`--fcm-accept-any-token`'s devices).
    public func adopt(_ registration: FCMRegistration) {
        tokens.withLock { tokens in
            if tokens.count < Self.maxRegistrations { tokens[registration.token] = registration }
        }
    }

    /// The registration of `token`.
    public func registration(_ token: String) -> FCMRegistration? {
        tokens.withLock { $0[token] }
    }

    /// Every registration of `project` subscribed to `topic`, in token order.
    public func subscribers(of topic: String, project: String) -> [FCMRegistration] {
        tokens.withLock { tokens in tokens.values.filter { $0.project == project && $0.topics.contains(topic) } }
            .sorted { $0.token < $1.token }
    }

    /// Every registration of `project`, in token order (a condition is evaluated against each).
    public func all(project: String) -> [FCMRegistration] {
        tokens.withLock { tokens in tokens.values.filter { $0.project == project } }.sorted { $0.token < $1.token }
    }

    /// What subscribing (or unsubscribing) one token did, in IID's words.
    public enum SubscriptionResult: Sendable, Equatable {
        /// Done.
        case done
        /// The token is not one the mock issued (IID: `NOT_FOUND`).
        case notFound
        /// The token belongs to another project (IID: `PERMISSION_DENIED`).
        case otherProject
        /// The token has as many topics as it may (IID: `TOO_MANY_TOPICS`).
        case tooManyTopics
    }

    /// Subscribes `token` to `topic` (or unsubscribes it) for `project`.
    public func subscribe(_ token: String, to topic: String, project: String, subscribe: Bool) -> SubscriptionResult {
        tokens.withLock { tokens in
            guard var registration = tokens[token] else { return .notFound }
            guard registration.project == project else { return .otherProject }
            if subscribe {
                guard registration.topics.contains(topic) || registration.topics.count < Self.maxTopicsPerRegistration else {
                    return .tooManyTopics
                }
                registration.topics.insert(topic)
            } else {
                registration.topics.remove(topic)
            }
            tokens[token] = registration
            return .done
        }
    }

    /// Forgets every registration.
    public func removeAll() {
        tokens.withLock { $0.removeAll() }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
