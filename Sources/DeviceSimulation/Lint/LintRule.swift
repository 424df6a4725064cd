import APNsModel
/// Every finding `PayloadLinter` can report. The raw value is the finding's stable `id`.
///
/// | id | severity | reported when |
/// |---|---|---|
/// | `payload-not-json` | error | the request body is not JSON (only from `lint(request:)`) |
/// | `payload-not-object` | error | the payload is not a JSON object |
/// | `aps-missing` | warning | an alert, background, Live Activity, widget or control push (or an untyped one) has no `aps` |
/// | `aps-not-object` | error | `aps` is not a dictionary |
/// | `aps-custom-key` | warning | a key inside `aps` that Apple does not define (a misspelling gets the closest known key; custom data belongs beside `aps`) |
/// | `aps-wrong-type` | error | a known `aps` key holds the wrong JSON type (e.g. `thread-id` not a string, `content-state` not a dictionary) |
/// | `alert-wrong-type` | error | `alert` is neither a string nor a dictionary, or one of its keys has the wrong type |
/// | `alert-unknown-key` | warning | a key inside `alert` that Apple does not define (closest known key suggested) |
/// | `loc-args-without-loc-key` | error | `alert.loc-args` without `alert.loc-key` |
/// | `title-loc-args-without-title-loc-key` | error | `alert.title-loc-args` without `alert.title-loc-key` |
/// | `subtitle-loc-args-without-subtitle-loc-key` | error | `alert.subtitle-loc-args` without `alert.subtitle-loc-key` |
/// | `badge-not-integer` | error | `badge` is not an integer |
/// | `content-available-not-one` | error | `content-available` is present but not the number 1 |
/// | `mutable-content-not-one` | error | `mutable-content` is present but not the number 1 |
/// | `mutable-content-without-alert` | warning | `mutable-content: 1` without a visible alert: the service extension never runs |
/// | `background-has-alert` | error | `apns-push-type: background` with an `alert` |
/// | `background-has-sound` | error | `apns-push-type: background` with a `sound` |
/// | `background-has-badge` | error | `apns-push-type: background` with a `badge` |
/// | `background-priority-10` | error | a background push or silent payload sent with priority 10 |
/// | `background-priority-missing` | warning | a background push or silent payload without a priority (APNs assumes 10) |
/// | `silent-push-type-mismatch` | error | a silent (`content-available`-only) payload sent with a push type other than `background` |
/// | `silent-push-type-missing` | warning | a silent payload without a push type |
/// | `critical-needs-entitlement` | warning | `interruption-level: critical` or `sound.critical: 1`: needs the critical-alerts entitlement |
/// | `time-sensitive-needs-entitlement` | warning | `interruption-level: time-sensitive`: needs the time-sensitive entitlement |
/// | `interruption-level-unknown` | error | `interruption-level` is not passive, active, time-sensitive or critical |
/// | `liveactivity-missing-event` | error | a Live Activity push without `event` |
/// | `liveactivity-unknown-event` | error | `event` is not start, update or end |
/// | `liveactivity-missing-timestamp` | error | a Live Activity start, update or end without `timestamp` |
/// | `liveactivity-missing-content-state` | error | a Live Activity start, update or end without `content-state` |
/// | `liveactivity-start-missing-attributes-type` | error | push-to-start without `attributes-type` |
/// | `liveactivity-start-missing-attributes` | error | push-to-start without `attributes` |
/// | `liveactivity-start-missing-alert` | error | push-to-start without `alert` |
/// | `content-changed-missing` | error | a widgets or controls push without `content-changed: true` |
/// | `topic-suffix-mismatch` | error | the topic does not end with the push type's suffix (e.g. a VoIP push to a topic without `.voip`) |
/// | `payload-over-4kb-not-voip` | error | more than 4096 bytes (at most 5120) on a push that is not VoIP: only VoIP may use 5 KB |
/// | `payload-too-large` | error | more than the push type's limit (5120 bytes for VoIP, else 4096) |
/// | `payload-near-limit` | info | more than 90 % of the push type's limit |
/// | `in-app-symbol-without-color` | warning | `inAppSymbol` without `inAppColor`: in-app routing does not happen |
/// | `in-app-color-without-symbol` | warning | `inAppColor` without `inAppSymbol`: in-app routing does not happen |
/// | `in-app-color-format` | warning | `inAppColor` is not `#RRGGBB` |
/// | `in-app-size-unknown` | warning | `inAppSize` is not normal or compact (the app falls back to normal) |
/// | `in-app-haptics-unknown` | warning | `inAppHaptics` is not success, warning or error (the app falls back to warning) |
/// | `in-app-missing-title-body` | warning | in-app routing keys, but the alert lacks a title or a body: shown as an ordinary notification |
public enum LintRule: String, CaseIterable, Sendable, Hashable, Codable {
    /// The request body is not JSON (only from `lint(request:)`).
    case payloadNotJSON = "payload-not-json"
    /// The payload is not a JSON object.
    case payloadNotObject = "payload-not-object"
    /// An alert, background, Live Activity, widget or control push (or an untyped one) has no `aps`.
    case apsMissing = "aps-missing"
    /// `aps` is not a dictionary.
    case apsNotObject = "aps-not-object"
    /// A key inside `aps` that Apple does not define (a misspelling gets the closest known key; custom data belongs beside `aps`).
    case apsCustomKey = "aps-custom-key"
    /// A known `aps` key holds the wrong JSON type (e.g. `thread-id` not a string, `content-state` not a dictionary).
    case apsWrongType = "aps-wrong-type"
    /// `alert` is neither a string nor a dictionary, or one of its keys has the wrong type.
    case alertWrongType = "alert-wrong-type"
    /// A key inside `alert` that Apple does not define (closest known key suggested).
    case alertUnknownKey = "alert-unknown-key"
    /// `alert.loc-args` without `alert.loc-key`.
    case locArgsWithoutLocKey = "loc-args-without-loc-key"
    /// `alert.title-loc-args` without `alert.title-loc-key`.
    case titleLocArgsWithoutTitleLocKey = "title-loc-args-without-title-loc-key"
    /// `alert.subtitle-loc-args` without `alert.subtitle-loc-key`.
    case subtitleLocArgsWithoutSubtitleLocKey = "subtitle-loc-args-without-subtitle-loc-key"
    /// `badge` is not an integer.
    case badgeNotInteger = "badge-not-integer"
    /// `content-available` is present but not the number 1.
    case contentAvailableNotOne = "content-available-not-one"
    /// `mutable-content` is present but not the number 1.
    case mutableContentNotOne = "mutable-content-not-one"
    /// `mutable-content: 1` without a visible alert: the service extension never runs.
    case mutableContentWithoutAlert = "mutable-content-without-alert"
    /// `apns-push-type: background` with an `alert`.
    case backgroundHasAlert = "background-has-alert"
    /// `apns-push-type: background` with a `sound`.
    case backgroundHasSound = "background-has-sound"
    /// `apns-push-type: background` with a `badge`.
    case backgroundHasBadge = "background-has-badge"
    /// A background push or silent payload sent with priority 10.
    case backgroundPriority10 = "background-priority-10"
    /// A background push or silent payload without a priority (APNs assumes 10).
    case backgroundPriorityMissing = "background-priority-missing"
    /// A silent (`content-available`-only) payload sent with a push type other than `background`.
    case silentPushTypeMismatch = "silent-push-type-mismatch"
    /// A silent payload without a push type.
    case silentPushTypeMissing = "silent-push-type-missing"
    /// `interruption-level: critical` or `sound.critical: 1`: needs the critical-alerts entitlement.
    case criticalNeedsEntitlement = "critical-needs-entitlement"
    /// `interruption-level: time-sensitive`: needs the time-sensitive entitlement.
    case timeSensitiveNeedsEntitlement = "time-sensitive-needs-entitlement"
    /// `interruption-level` is not passive, active, time-sensitive or critical.
    case interruptionLevelUnknown = "interruption-level-unknown"
    /// A Live Activity push without `event`.
    case liveActivityMissingEvent = "liveactivity-missing-event"
    /// `event` is not start, update or end.
    case liveActivityUnknownEvent = "liveactivity-unknown-event"
    /// A Live Activity start, update or end without `timestamp`.
    case liveActivityMissingTimestamp = "liveactivity-missing-timestamp"
    /// A Live Activity start, update or end without `content-state`.
    case liveActivityMissingContentState = "liveactivity-missing-content-state"
    /// Push-to-start without `attributes-type`.
    case liveActivityStartMissingAttributesType = "liveactivity-start-missing-attributes-type"
    /// Push-to-start without `attributes`.
    case liveActivityStartMissingAttributes = "liveactivity-start-missing-attributes"
    /// Push-to-start without `alert`.
    case liveActivityStartMissingAlert = "liveactivity-start-missing-alert"
    /// A widgets or controls push without `content-changed: true`.
    case contentChangedMissing = "content-changed-missing"
    /// The topic does not end with the push type's suffix (e.g. a VoIP push to a topic without `.voip`).
    case topicSuffixMismatch = "topic-suffix-mismatch"
    /// More than 4096 bytes (at most 5120) on a push that is not VoIP: only VoIP may use 5 KB.
    case payloadOver4KBNotVoIP = "payload-over-4kb-not-voip"
    /// More than the push type's limit (5120 bytes for VoIP, else 4096).
    case payloadTooLarge = "payload-too-large"
    /// More than 90 % of the push type's limit.
    case payloadNearLimit = "payload-near-limit"
    /// `inAppSymbol` without `inAppColor`: in-app routing does not happen.
    case inAppSymbolWithoutColor = "in-app-symbol-without-color"
    /// `inAppColor` without `inAppSymbol`: in-app routing does not happen.
    case inAppColorWithoutSymbol = "in-app-color-without-symbol"
    /// `inAppColor` is not `#RRGGBB`.
    case inAppColorFormat = "in-app-color-format"
    /// `inAppSize` is not normal or compact (the app falls back to normal).
    case inAppSizeUnknown = "in-app-size-unknown"
    /// `inAppHaptics` is not success, warning or error (the app falls back to warning).
    case inAppHapticsUnknown = "in-app-haptics-unknown"
    /// In-app routing keys, but the alert lacks a title or a body: shown as an ordinary notification.
    case inAppMissingTitleBody = "in-app-missing-title-body"

    /// The severity every finding of this rule carries.
    public var severity: LintFinding.Severity {
        switch self {
        case .apsMissing, .apsCustomKey, .alertUnknownKey, .mutableContentWithoutAlert, .backgroundPriorityMissing,
            .silentPushTypeMissing, .criticalNeedsEntitlement, .timeSensitiveNeedsEntitlement,
            .inAppSymbolWithoutColor, .inAppColorWithoutSymbol, .inAppColorFormat, .inAppSizeUnknown,
            .inAppHapticsUnknown, .inAppMissingTitleBody:
            return .warning
        case .payloadNearLimit:
            return .info
        default:
            return .error
        }
    }
}
