/// The `apns-topic` rules: which topic a push goes to, and whether the credential and push type allow it.
///
/// Reasons, chosen from Apple's tables:
/// - `MissingTopic`: no topic and none can be inferred (token auth; a certificate with several topics).
/// - `BadTopic`: the header is not a topic at all (empty, spaces or control characters, or nothing but a
///   push-type suffix).
/// - `TopicDisallowed`: the credential may not push to it (a certificate that does not list it, for any push
///   type; `location` over a certificate, which Apple restricts to token auth; `mdm` over a certificate that is
///   not an MDM certificate).
/// - `DeviceTokenNotForTopic`: the suffix does not match `apns-push-type` (a `voip` push to `com.x`, an
///   `alert` to `com.x.voip`). Device tokens are issued per topic, so a token can never be registered for a
///   topic whose suffix contradicts the push type; that is the answer APNs gives for a token/topic mismatch.
public enum TopicRules {
    /// Every push-type suffix, longest first, so `.voip-ptt` is not mistaken for `.voip`.
    public static let knownSuffixes: [String] = PushType.allCases.compactMap(\.topicSuffix)
        .sorted { $0.count > $1.count }

    /// The push-type suffix `topic` ends with, if any.
    public static func suffix(of topic: String) -> String? {
        if let answer = asciiSuffix(of: topic) { return answer }
        return knownSuffixes.first { topic.hasSuffix($0) && topic.count > $0.count }
    }

    /// `suffix(of:)` on bytes for an ASCII topic (one byte per Character, so the same answer); `nil` when the
    /// topic is not ASCII or its bytes are not contiguous.
    private static func asciiSuffix(of topic: String) -> String?? {
        let answer: String??? = topic.utf8.withContiguousStorageIfAvailable { bytes -> String?? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // Every suffix has a dot; a topic without one has none of them.
            guard bytes.contains(UInt8(ascii: ".")) else { return .some(nil) }
            for (position, suffix) in knownSuffixBytes.enumerated()
            where suffix.count < bytes.count && suffix.last == bytes.last {
                let matched = suffix.withUnsafeBufferPointer { suffix in
                    ASCIIByte.equalBytes(bytes.baseAddress! + (bytes.count - suffix.count), suffix.baseAddress!,
                                         count: suffix.count)
                }
                if matched { return .some(knownSuffixes[position]) }
            }
            return .some(nil)
        }
        return answer ?? nil
    }

    /// `knownSuffixes`' UTF-8 bytes, in the same order, for `asciiSuffix`.
    private static let knownSuffixBytes: [[UInt8]] = knownSuffixes.map { Array($0.utf8) }

    /// The bundle ID part of `topic`: the topic without its push-type suffix.
    public static func bundleID(of topic: String) -> String {
        guard let suffix = suffix(of: topic) else { return topic }
        return String(topic.dropLast(suffix.count))
    }

    /// Whether `topic` is syntactically a topic: non-empty, no spaces or control characters, not only a suffix.
    public static func isWellFormed(_ topic: String) -> Bool {
        guard !topic.isEmpty else { return false }
        // On bytes: a UTF-8 sequence's bytes are all 0x80 or above, so a byte at or below 0x20 or equal to 0x7F is
        // exactly such a scalar.
        let hasControl = topic.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 <= 0x20 || $0 == 0x7F }
        } ?? topic.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
        if hasControl { return false }
        // Every suffix starts with "."; a topic that does not cannot be one (no Character equal to "." starts
        // with another byte).
        if topic.utf8.first == UInt8(ascii: "."), knownSuffixes.contains(topic) { return false }
        return true
    }

    /// Whether `topic` fits `pushType`: the type's suffix is present (and the bundle ID before it is not
    /// empty), or for `alert`/`background`, no known suffix at all. `mdm` topics are the certificate's UID and
    /// may look like anything.
    public static func matches(_ topic: String, pushType: PushType) -> Bool {
        switch pushType {
        case .mdm:
            return true
        case .alert, .background:
            return suffix(of: topic) == nil
        default:
            guard let wanted = pushType.topicSuffix else { return true }
            return suffix(of: topic) == wanted
        }
    }

    /// The prefix of the topics Apple issues MDM push certificates for (`com.apple.mgmt.External.<UUID>`, the
    /// certificate's subject UID). Only such a certificate may send `mdm` pushes (behaviour chosen: Apple says
    /// the topic is the UID of the MDM certificate; an app's certificate is not one).
    public static let mdmTopicPrefix = "com.apple.mgmt."

    /// Resolves and checks the topic of a device push. `topicHeader` is `apns-topic` (nil when absent).
    /// Order: presence (`MissingTopic`) → syntax (`BadTopic`) → the credential's scope (`TopicDisallowed`) →
    /// suffix against push type (`DeviceTokenNotForTopic`). Scope comes before the suffix because a topic the
    /// connection may not use at all should be reported as such, not as a token mismatch.
    public static func resolve(topicHeader: String?, pushType: PushType, credential: ProviderCredential)
        -> Result<String, APNsReason>
    {
        let certificate: CertificateFacts?
        if case .certificate(let facts) = credential { certificate = facts } else { certificate = nil }

        let topic: String
        if let topicHeader {
            topic = topicHeader
        } else if let certificate, let only = singleTopic(of: certificate, pushType: pushType) {
            // A single-topic certificate (or an MDM certificate) supplies the topic when the header is absent.
            topic = only
        } else {
            // Apple's current header table marks apns-topic as required; with token auth APNs cannot know the app.
            return .failure(.missingTopic)
        }
        guard isWellFormed(topic) else { return .failure(.badTopic) }
        if let certificate, let reason = checkCertificateScope(topic, pushType: pushType, certificate: certificate) {
            return .failure(reason)
        }
        // A topic-specific key signs only for its topics (see `TrustedKey`).
        if case .token(let facts) = credential, let key = facts.key, !key.covers(topic: topic) {
            return .failure(.topicDisallowed)
        }
        guard matches(topic, pushType: pushType) else { return .failure(.deviceTokenNotForTopic) }
        return .success(topic)
    }

    /// The topic a certificate implies when `apns-topic` is absent: its UID for `mdm`; otherwise its only
    /// topic (the UID when it lists none). `nil` when it covers several.
    static func singleTopic(of certificate: CertificateFacts, pushType: PushType) -> String? {
        if pushType == .mdm { return certificate.subjectUID }
        let covered = certificate.coveredTopics
        return covered.count == 1 ? covered[0] : nil
    }

    /// `TopicDisallowed` when a certificate does not cover `topic` for `pushType`, else `nil`.
    static func checkCertificateScope(_ topic: String, pushType: PushType, certificate: CertificateFacts)
        -> APNsReason?
    {
        switch pushType {
        case .location:
            return .topicDisallowed  // Apple: location pushes need token auth, even when the topic is listed.
        case .mdm:
            guard let uid = certificate.subjectUID, uid.hasPrefix(mdmTopicPrefix), topic == uid else { return .topicDisallowed }
            return nil
        default:
            // apns-rules §2.2, §6: a certificate sends only to the topics it lists (or its UID when it lists none),
            // for every push type, fileprovider, widgets, controls and liveactivity included. Apple's push-type
            // table says each type's certificate must list the suffixed topic; no type is implied by the app's.
            if certificate.coveredTopics.contains(topic) { return nil }
            return .topicDisallowed
        }
    }
}
