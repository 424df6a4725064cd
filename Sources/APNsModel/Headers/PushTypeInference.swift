/// What APNs assumes when a device push has no `apns-push-type` header.
///
/// Apple requires the header only on watchOS and "recommends" it elsewhere, so requests without it are
/// legal. We infer, leniently, in this order:
/// 1. the topic's suffix, when it has one (`com.x.voip` → `voip`): senders from before push types existed
///    (VoIP, complication) omit the header and their pushes work;
/// 2. `background` when the body's `aps` holds `content-available: 1` and no `alert`, `badge` or `sound` —
///    the exact shape Apple prescribes for a background push;
/// 3. otherwise `alert` (what `apns2` sends by default).
public enum PushTypeInference {
    /// The push type for a request without `apns-push-type`. `topic` is `apns-topic` (or the certificate's only
    /// topic); `body` is the raw body, read only if it parses as a JSON object.
    public static func infer(topic: String?, body: [UInt8]) -> PushType {
        if let topic, let suffix = TopicRules.suffix(of: topic),
           let type = PushType.allCases.first(where: { $0.topicSuffix == suffix }) {
            return type
        }
        // A body over every size limit will be refused anyway; do not spend a parse on it.
        if body.count <= PushType.voip.maximumPayloadBytes, let aps = Payload(bytes: body)?.aps, aps.isBackgroundOnly {
            return .background
        }
        return .alert
    }
}
