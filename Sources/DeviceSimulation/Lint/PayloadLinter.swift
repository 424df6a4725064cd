import APNsModel
/// Finds what APNs accepts but the device mishandles in a push (the ids are listed on ``LintRule``).
///
/// Header values are passed as parameters; `nil` means the header is absent. An absent push type is read
/// from the topic's suffix when it has one.
public enum PayloadLinter {
    /// Lints a payload and the headers that affect delivery.
    ///
    /// - Parameters:
    ///   - payload: the request body.
    ///   - pushType: `apns-push-type`, `nil` when absent.
    ///   - priority: `apns-priority`, `nil` when absent (APNs then assumes 10).
    ///   - topic: `apns-topic`, `nil` when absent.
    ///   - payloadBytes: the body's size in bytes, as sent.
    /// - Returns: the findings, in check order (payload shape, `aps` keys, alert, background, Live Activity,
    ///   push type and size, in-app routing).
    public static func lint(
        payload: JSONValue, pushType: PushType?, priority: Priority?, topic: String?, payloadBytes: Int
    ) -> [LintFinding] {
        var context = LintContext(
            payload: payload, pushType: pushType, priority: priority, topic: topic, payloadBytes: payloadBytes)
        guard payload.objectMembers != nil else {
            context.report(.payloadNotObject, "the payload must be a JSON object, not a JSON \(payload.typeName)", at: "$")
            return context.findings
        }
        ApsKeyChecks.run(&context)
        AlertChecks.run(&context)
        BackgroundChecks.run(&context)
        LiveActivityChecks.run(&context)
        PushTypeChecks.run(&context)
        InAppRoutingChecks.run(&context)
        return context.findings
    }
}
