/// The numbers FCM's checks use that a deployment may want to change (fcm-rules §3.5, §3.7).
public struct FCMLimits: Sendable, Hashable {
    /// The most bytes a message's payload may take (``MessageSize``): 4096, as every Firebase page says.
    public var messageBytes: Int
    /// The most bytes a topic or condition message's payload may take. Google's error-code page says 2048, its
    /// message-type and Admin SDK pages 4096; the mock's default is the lenient 4096 (fcm-rules §3.7).
    public var topicMessageBytes: Int
    /// The most topics a condition may name: 5.
    public var maximumConditionTopics: Int

    /// FCM's numbers, each changeable.
    public init(messageBytes: Int = 4096, topicMessageBytes: Int = 4096, maximumConditionTopics: Int = FCMCondition.maximumTopics) {
        self.messageBytes = messageBytes
        self.topicMessageBytes = topicMessageBytes
        self.maximumConditionTopics = maximumConditionTopics
    }
}
