import APNsModel
/// Checks for silent (background) pushes: device-rules §1, apns-rules §4.7.
enum BackgroundChecks {
    static func run(_ context: inout LintContext) {
        guard let aps = context.aps else { return }
        if context.pushType == .background {
            let keys: [(String, LintRule)] = [
                ("alert", .backgroundHasAlert), ("sound", .backgroundHasSound), ("badge", .backgroundHasBadge),
            ]
            for (key, rule) in keys where aps[key] != nil {
                context.report(
                    rule,
                    "background pushes must not carry \(key): send it as an alert push, or drop \(key) to keep the push silent",
                    at: "aps.\(key)")
            }
        }
        // Silent needs `content-available: 1` (ApsFacts.isSilent); most pushes lack it, and the full facts cost more.
        let silent = aps["content-available"]?.isNumberOne == true && context.content?.isSilent == true
        if silent {
            if let type = context.pushType, type != .background {
                context.report(
                    .silentPushTypeMismatch,
                    "a content-available-only payload is a silent push: send apns-push-type background, not \(type.rawValue)",
                    at: "apns-push-type")
            } else if context.pushType == nil {
                context.report(
                    .silentPushTypeMissing, "a silent push should send apns-push-type background",
                    at: "apns-push-type")
            }
        }
        guard silent || context.pushType == .background else { return }
        switch context.priority {
        case .immediate?:
            context.report(
                .backgroundPriority10,
                "background pushes must use apns-priority 5; with 10 iOS throttles or drops them", at: "apns-priority")
        case nil:
            context.report(
                .backgroundPriorityMissing,
                "no apns-priority: APNs assumes 10, but background pushes must use 5", at: "apns-priority")
        default:
            break
        }
    }
}
