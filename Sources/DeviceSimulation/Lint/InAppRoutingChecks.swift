import APNsModel
/// Checks on the in-app routing keys (device-rules §4), wherever the custom data sits.
enum InAppRoutingChecks {
    static func run(_ context: inout LintContext) {
        guard mayHaveRoutingKeys(context.payload) else { return }
        let custom = CustomData(payload: context.payload)
        guard InAppRouting.keys.contains(where: { custom[$0] != nil }) else { return }
        let symbol = custom["inAppSymbol"]
        let color = custom["inAppColor"]
        if symbol != nil, color == nil {
            context.report(
                .inAppSymbolWithoutColor, "inAppSymbol without inAppColor: the push is not routed in-app",
                at: custom.path(of: "inAppSymbol"))
        }
        if color != nil, symbol == nil {
            context.report(
                .inAppColorWithoutSymbol, "inAppColor without inAppSymbol: the push is not routed in-app",
                at: custom.path(of: "inAppColor"))
        }
        if let color, !(color.stringValue.map(InAppRouting.isHexColor) ?? false) {
            context.report(
                .inAppColorFormat, "inAppColor \(color.lintDescription) is not #RRGGBB", at: custom.path(of: "inAppColor"))
        }
        if let size = custom["inAppSize"], size.stringValue.flatMap(InAppStyle.Size.init(rawValue:)) == nil {
            context.report(
                .inAppSizeUnknown, "inAppSize \(size.lintDescription) is not normal or compact: the app uses normal",
                at: custom.path(of: "inAppSize"))
        }
        if let haptics = custom["inAppHaptics"],
            haptics.stringValue.flatMap(InAppStyle.Haptics.init(rawValue:)) == nil
        {
            context.report(
                .inAppHapticsUnknown,
                "inAppHaptics \(haptics.lintDescription) is not success, warning or error: the app uses warning",
                at: custom.path(of: "inAppHaptics"))
        }
        let alert = context.aps?["alert"]
        if alert?["title"]?.stringValue == nil || alert?["body"]?.stringValue == nil {
            context.report(
                .inAppMissingTitleBody,
                "in-app routing needs aps.alert with both a title and a body; otherwise the push is shown as usual",
                at: "aps.alert")
        }
    }

    /// Whether any routing key is among the top-level keys or those of `custom.a`: `CustomData` finds its keys
    /// only there, so when this is false it would find none, and the payload need not be split to know it.
    /// (Most payloads: a cheap length test skips the comparisons for almost every key.)
    private static func mayHaveRoutingKeys(_ payload: JSONValue) -> Bool {
        let lengths = routingKeyLengths
        func holdsRoutingKey(_ members: [JSONValue.JSONMember]?) -> Bool {
            guard let members else { return false }
            // By index: reads each key in place instead of copying every member.
            for index in members.indices where lengths.contains(members[index].key.utf8.count) {
                if InAppRouting.keys.contains(members[index].key) { return true }
            }
            return false
        }
        return holdsRoutingKey(payload.objectMembers) || holdsRoutingKey(payload["custom"]?["a"]?.objectMembers)
    }

    /// The shortest to the longest UTF-8 length of `InAppRouting.keys`.
    private static let routingKeyLengths: ClosedRange<Int> = {
        let lengths = InAppRouting.keys.map(\.utf8.count)
        return lengths.min()!...lengths.max()!
    }()
}
