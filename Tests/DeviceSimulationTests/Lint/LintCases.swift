@testable import APNsModel
@testable import DeviceSimulation

/// For every rule: a payload that triggers it, and a near miss that must not.
enum LintCases {
    static let positive: [LintCase] = [
        LintCase(rule: .payloadNotJSON, payload: ##"{"aps": {"alert": "Hi",}}"##, viaRequest: true),
        LintCase(rule: .payloadNotObject, payload: ##"[1, 2]"##),
        LintCase(rule: .apsMissing, payload: ##"{"orderId": "42"}"##),
        LintCase(rule: .apsNotObject, payload: ##"{"aps": "hello"}"##),
        LintCase(rule: .apsCustomKey, payload: ##"{"aps": {"alert": "Hi", "orderId": "42"}}"##),
        LintCase(rule: .apsWrongType, payload: ##"{"aps": {"alert": "Hi", "thread-id": 7}}"##),
        LintCase(rule: .alertWrongType, payload: ##"{"aps": {"alert": {"title": 5, "body": "b"}}}"##),
        LintCase(rule: .alertUnknownKey, payload: ##"{"aps": {"alert": {"titel": "t", "body": "b"}}}"##),
        LintCase(rule: .locArgsWithoutLocKey, payload: ##"{"aps": {"alert": {"body": "b", "loc-args": ["x"]}}}"##),
        LintCase(
            rule: .titleLocArgsWithoutTitleLocKey, payload: ##"{"aps": {"alert": {"body": "b", "title-loc-args": ["x"]}}}"##),
        LintCase(
            rule: .subtitleLocArgsWithoutSubtitleLocKey,
            payload: ##"{"aps": {"alert": {"body": "b", "subtitle-loc-args": ["x"]}}}"##),
        LintCase(rule: .badgeNotInteger, payload: ##"{"aps": {"badge": "3"}}"##),
        LintCase(rule: .contentAvailableNotOne, payload: ##"{"aps": {"content-available": true}}"##),
        LintCase(rule: .mutableContentNotOne, payload: ##"{"aps": {"alert": "Hi", "mutable-content": "1"}}"##),
        LintCase(rule: .mutableContentWithoutAlert, payload: ##"{"aps": {"badge": 1, "mutable-content": 1}}"##),
        LintCase(
            rule: .backgroundHasAlert, payload: ##"{"aps": {"content-available": 1, "alert": "Hi"}}"##,
            pushType: .background, priority: .considerPower),
        LintCase(
            rule: .backgroundHasSound, payload: ##"{"aps": {"content-available": 1, "sound": "default"}}"##,
            pushType: .background, priority: .considerPower),
        LintCase(
            rule: .backgroundHasBadge, payload: ##"{"aps": {"content-available": 1, "badge": 2}}"##,
            pushType: .background, priority: .considerPower),
        LintCase(
            rule: .backgroundPriority10, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .background,
            priority: .immediate),
        LintCase(
            rule: .backgroundPriorityMissing, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .background),
        LintCase(
            rule: .silentPushTypeMismatch, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .alert,
            priority: .considerPower),
        LintCase(
            rule: .silentPushTypeMissing, payload: ##"{"aps": {"content-available": 1}}"##, priority: .considerPower),
        LintCase(rule: .criticalNeedsEntitlement, payload: ##"{"aps": {"alert": "Fire", "interruption-level": "critical"}}"##),
        LintCase(
            rule: .timeSensitiveNeedsEntitlement,
            payload: ##"{"aps": {"alert": "Soon", "interruption-level": "time-sensitive"}}"##),
        LintCase(rule: .interruptionLevelUnknown, payload: ##"{"aps": {"alert": "Hi", "interruption-level": "urgent"}}"##),
        LintCase(
            rule: .liveActivityMissingEvent, payload: ##"{"aps": {"timestamp": 1, "content-state": {}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityUnknownEvent,
            payload: ##"{"aps": {"event": "pause", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity),
        LintCase(
            rule: .liveActivityMissingTimestamp, payload: ##"{"aps": {"event": "update", "content-state": {}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityMissingContentState, payload: ##"{"aps": {"event": "end", "timestamp": 1}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAttributesType,
            payload: ##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}, "attributes": {}, "alert": {"title": "t", "body": "b"}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAttributes,
            payload: ##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}, "attributes-type": "A", "alert": {"title": "t", "body": "b"}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAlert,
            payload: ##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}, "attributes-type": "A", "attributes": {}}}"##,
            pushType: .liveactivity),
        LintCase(rule: .contentChangedMissing, payload: ##"{"aps": {"content-changed": 1}}"##, pushType: .widgets),
        LintCase(rule: .topicSuffixMismatch, payload: ##"{"callId": "1"}"##, pushType: .voip, topic: "com.example.app"),
        LintCase(rule: .payloadOver4KBNotVoIP, payload: ##"{"aps": {"alert": "Hi"}}"##, pushType: .alert, bytes: 4500),
        LintCase(rule: .payloadTooLarge, payload: ##"{"callId": "1"}"##, pushType: .voip, bytes: 5121),
        LintCase(rule: .payloadNearLimit, payload: ##"{"aps": {"alert": "Hi"}}"##, bytes: 3800),
        LintCase(
            rule: .inAppSymbolWithoutColor,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "bolt.fill"}"##),
        LintCase(
            rule: .inAppColorWithoutSymbol,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "custom": {"i": "x", "a": {"inAppColor": "#ae0000"}}}"##),
        LintCase(
            rule: .inAppColorFormat,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "red"}"##),
        LintCase(
            rule: .inAppSizeUnknown,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "#000000", "inAppSize": "huge"}"##),
        LintCase(
            rule: .inAppHapticsUnknown,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "os_data": {}, "inAppSymbol": "s", "inAppColor": "#000000", "inAppHaptics": "buzz"}"##),
        LintCase(
            rule: .inAppMissingTitleBody,
            payload: ##"{"aps": {"alert": "just a body"}, "inAppSymbol": "s", "inAppColor": "#000000"}"##),
    ]

    static let negative: [LintCase] = [
        LintCase(rule: .payloadNotJSON, payload: ##"{"aps": {"alert": "Hi"}}"##, viaRequest: true),
        LintCase(rule: .payloadNotObject, payload: ##"{"aps": {"alert": "Hi"}}"##),
        LintCase(rule: .apsMissing, payload: ##"{"callId": "1"}"##, pushType: .voip),
        LintCase(rule: .apsNotObject, payload: ##"{"aps": {"alert": "Hi"}}"##),
        LintCase(rule: .apsCustomKey, payload: ##"{"aps": {"alert": "Hi", "thread-id": "t"}, "orderId": "42"}"##),
        LintCase(rule: .apsWrongType, payload: ##"{"aps": {"alert": "Hi", "thread-id": "t", "relevance-score": 0.5}}"##),
        LintCase(rule: .alertWrongType, payload: ##"{"aps": {"alert": {"title": "t", "body": "b", "loc-args": []}}}"##),
        LintCase(
            rule: .alertWrongType,
            payload: ##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}, "alert": {"title": {"loc-key": "T"}, "body": {"loc-key": "B"}, "sound": "chime.aiff"}}}"##,
            pushType: .liveactivity),
        LintCase(rule: .alertUnknownKey, payload: ##"{"aps": {"alert": {"title": "t", "subtitle": "s", "body": "b"}}}"##),
        LintCase(rule: .locArgsWithoutLocKey, payload: ##"{"aps": {"alert": {"loc-key": "K", "loc-args": ["x"]}}}"##),
        LintCase(
            rule: .titleLocArgsWithoutTitleLocKey,
            payload: ##"{"aps": {"alert": {"title-loc-key": "T", "title-loc-args": ["x"], "body": "b"}}}"##),
        LintCase(
            rule: .subtitleLocArgsWithoutSubtitleLocKey,
            payload: ##"{"aps": {"alert": {"subtitle-loc-key": "S", "subtitle-loc-args": ["x"], "body": "b"}}}"##),
        LintCase(rule: .badgeNotInteger, payload: ##"{"aps": {"badge": 0}}"##),
        LintCase(rule: .contentAvailableNotOne, payload: ##"{"aps": {"content-available": 1}}"##),
        LintCase(rule: .mutableContentNotOne, payload: ##"{"aps": {"alert": "Hi", "mutable-content": 1}}"##),
        LintCase(rule: .mutableContentWithoutAlert, payload: ##"{"aps": {"alert": {"title": "t"}, "mutable-content": 1}}"##),
        LintCase(
            rule: .backgroundHasAlert, payload: ##"{"aps": {"content-available": 1, "alert": "Hi"}}"##, pushType: .alert),
        LintCase(
            rule: .backgroundHasSound, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .background,
            priority: .considerPower),
        LintCase(
            rule: .backgroundHasBadge, payload: ##"{"aps": {"alert": "Hi", "badge": 2}}"##, pushType: .alert,
            priority: .immediate),
        LintCase(
            rule: .backgroundPriority10, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .background,
            priority: .considerPower),
        LintCase(
            rule: .backgroundPriorityMissing, payload: ##"{"aps": {"alert": "Hi", "content-available": 1}}"##,
            pushType: .alert),
        LintCase(
            rule: .silentPushTypeMismatch, payload: ##"{"aps": {"content-available": 1, "alert": "Hi"}}"##,
            pushType: .alert),
        LintCase(
            rule: .silentPushTypeMissing, payload: ##"{"aps": {"content-available": 1}}"##, pushType: .background,
            priority: .considerPower),
        LintCase(rule: .criticalNeedsEntitlement, payload: ##"{"aps": {"alert": "Hi", "sound": {"name": "default"}}}"##),
        LintCase(
            rule: .timeSensitiveNeedsEntitlement, payload: ##"{"aps": {"alert": "Hi", "interruption-level": "passive"}}"##),
        LintCase(rule: .interruptionLevelUnknown, payload: ##"{"aps": {"alert": "Hi", "interruption-level": "active"}}"##),
        LintCase(rule: .liveActivityMissingEvent, payload: ##"{"aps": {"alert": "Hi"}}"##, pushType: .alert),
        LintCase(
            rule: .liveActivityUnknownEvent, payload: ##"{"aps": {"event": "end", "timestamp": 1, "content-state": {}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityMissingTimestamp,
            payload: ##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity),
        LintCase(
            rule: .liveActivityMissingContentState,
            payload: ##"{"aps": {"event": "end", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAttributesType,
            payload: ##"{"aps": {"event": "update", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAttributes,
            payload: ##"{"aps": {"event": "start", "timestamp": 1, "content-state": {}, "attributes-type": "A", "attributes": {}, "alert": {"title": "t", "body": "b"}}}"##,
            pushType: .liveactivity),
        LintCase(
            rule: .liveActivityStartMissingAlert,
            payload: ##"{"aps": {"event": "end", "timestamp": 1, "content-state": {}}}"##, pushType: .liveactivity),
        LintCase(rule: .contentChangedMissing, payload: ##"{"aps": {"content-changed": true}}"##, pushType: .controls),
        LintCase(rule: .topicSuffixMismatch, payload: ##"{"callId": "1"}"##, pushType: .voip, topic: "com.example.app.voip"),
        LintCase(
            rule: .payloadOver4KBNotVoIP, payload: ##"{"callId": "1"}"##, topic: "com.example.app.voip", bytes: 4500),
        LintCase(rule: .payloadTooLarge, payload: ##"{"callId": "1"}"##, pushType: .voip, bytes: 5120),
        LintCase(rule: .payloadNearLimit, payload: ##"{"aps": {"alert": "Hi"}}"##, bytes: 3686),
        LintCase(
            rule: .inAppSymbolWithoutColor,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "#112233"}"##),
        LintCase(
            rule: .inAppColorWithoutSymbol,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "custom": {"i": "x", "a": {"inAppSymbol": "s", "inAppColor": "#ae0000"}}}"##),
        LintCase(
            rule: .inAppColorFormat,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "#A1b2C3"}"##),
        LintCase(
            rule: .inAppSizeUnknown,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "#000000", "inAppSize": "compact"}"##),
        LintCase(
            rule: .inAppHapticsUnknown,
            payload: ##"{"aps": {"alert": {"title": "t", "body": "b"}}, "inAppSymbol": "s", "inAppColor": "#000000", "inAppHaptics": "error"}"##),
        LintCase(rule: .inAppMissingTitleBody, payload: ##"{"aps": {"alert": "just a body"}, "orderId": "42"}"##),
    ]
}
