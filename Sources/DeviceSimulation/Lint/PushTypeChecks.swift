import APNsModel
/// Checks tying the payload to its push type and topic: widgets/controls, topic suffixes, sizes.
enum PushTypeChecks {
    static func run(_ context: inout LintContext) {
        if let type = context.pushType, type == .widgets || type == .controls,
            context.aps?["content-changed"] != .bool(true)
        {
            context.report(
                .contentChangedMissing,
                "\(type.rawValue) pushes need aps.content-changed: true, or WidgetKit does not reload",
                at: "aps.content-changed")
        }
        if let type = context.pushType, let suffix = type.topicSuffix, let topic = context.topic,
            !topic.hasSuffix(suffix)
        {
            context.report(
                .topicSuffixMismatch, "\(type.rawValue) pushes go to topic <bundle ID>\(suffix), not \"\(topic)\"",
                at: "apns-topic")
        }
        checkSize(&context)
    }

    private static func checkSize(_ context: inout LintContext) {
        let bytes = context.payloadBytes
        let isVoIP = context.pushType == .voip
        let limit = isVoIP ? PushType.voip.maximumPayloadBytes : PushType.alert.maximumPayloadBytes
        if bytes > limit {
            if !isVoIP, bytes <= PushType.voip.maximumPayloadBytes {
                context.report(
                    .payloadOver4KBNotVoIP,
                    "\(bytes) bytes: only VoIP pushes (apns-push-type voip, topic ending .voip) may exceed 4096 bytes",
                    at: "$")
            } else {
                context.report(.payloadTooLarge, "\(bytes) bytes: over the \(limit)-byte limit", at: "$")
            }
        } else if bytes * 10 > limit * 9 {
            context.report(
                .payloadNearLimit, "\(bytes) of \(limit) bytes: close to the limit; dynamic content may push it over",
                at: "$")
        }
    }
}
