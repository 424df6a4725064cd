import APNsModel
/// Checks for Live Activity pushes (apns-rules §4.8).
enum LiveActivityChecks {
    static func run(_ context: inout LintContext) {
        guard context.isLiveActivity, let aps = context.aps else { return }
        guard let eventValue = aps["event"] else {
            context.report(
                .liveActivityMissingEvent, "a Live Activity push needs aps.event: start, update or end", at: "aps")
            return
        }
        guard let event = eventValue.stringValue, ["start", "update", "end"].contains(event) else {
            context.report(
                .liveActivityUnknownEvent,
                "aps.event \(eventValue.lintDescription) is not start, update or end", at: "aps.event")
            return
        }
        let common: [(String, LintRule)] = [
            ("timestamp", .liveActivityMissingTimestamp), ("content-state", .liveActivityMissingContentState),
        ]
        let start: [(String, LintRule)] = [
            ("attributes-type", .liveActivityStartMissingAttributesType),
            ("attributes", .liveActivityStartMissingAttributes),
            ("alert", .liveActivityStartMissingAlert),
        ]
        for (key, rule) in common + (event == "start" ? start : []) where aps[key] == nil {
            context.report(
                rule, "a Live Activity \(event) needs aps.\(key); without it ActivityKit ignores the push", at: "aps")
        }
    }
}
