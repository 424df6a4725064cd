import APNsModel
/// device-rules §8: the interruption level the device applies.
enum InterruptionLevelRule {
    /// The values of `aps.interruption-level`.
    enum Level: String, CaseIterable, Sendable, Hashable {
        /// Notification Center only: no sound, does not light the screen.
        case passive
        /// The default.
        case active
        /// Breaks through Focus; needs the time-sensitive entitlement.
        case timeSensitive = "time-sensitive"
        /// Plays through silent mode and Focus; needs the critical-alerts entitlement.
        case critical
    }

    /// The level the device applies, with the warnings that explain a downgrade.
    ///
    /// `sound.critical: 1` asks for `critical` whatever `interruption-level` says. Without the matching
    /// entitlement `time-sensitive` and `critical` fall back to `active`. `unknown` is set when the value is
    /// not one of the four levels (the level is then reported as `active`, which the model cannot vouch for).
    static func effective(
        for content: ApsFacts, entitlements: Set<Entitlement>
    ) -> (level: Level, warnings: [String], unknown: String?) {
        var requested = Level.active
        if content.criticalSound {
            requested = .critical
        } else if let raw = content.aps["interruption-level"] {
            guard let level = raw.stringValue.flatMap(Level.init(rawValue:)) else {
                let shown = raw.stringValue.map { "\"\($0)\"" } ?? "(\(raw.typeName))"
                return (
                    .active, [],
                    "interruption-level \(shown) is not passive, active, time-sensitive or critical"
                )
            }
            requested = level
        }
        switch requested {
        case .timeSensitive where !entitlements.contains(.timeSensitive):
            return (
                .active,
                ["interruption-level time-sensitive without the time-sensitive entitlement: treated as active"], nil
            )
        case .critical where !entitlements.contains(.criticalAlerts):
            let asked = content.criticalSound ? "sound.critical: 1" : "interruption-level critical"
            return (.active, ["\(asked) without the critical-alerts entitlement: treated as active"], nil)
        default:
            return (requested, [], nil)
        }
    }
}
