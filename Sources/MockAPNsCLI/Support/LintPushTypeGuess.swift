import APNsModel

/// The push type `lint` assumes when no `--push-type` is given, inferred from the payload the way APNs client
/// libraries pick one, so the push-type rules run instead of being skipped: a topic suffix (`.voip`,
/// `.complication`, …) names its type; `content-available: 1` makes a silent (background) push, even when an
/// alert came along by mistake — which is exactly what lint should then report; an `event` is a Live Activity;
/// anything else is an alert. `lint` prints the guess and why, so a wrong guess is one flag away from fixed.
struct LintPushTypeGuess: Equatable {
    /// The assumed push type.
    var pushType: PushType
    /// Why, e.g. "aps has content-available: 1".
    var because: String

    /// The guess for `payload` sent to `topic`.
    static func infer(payload: JSONValue, topic: String?) -> LintPushTypeGuess {
        if let topic, let type = PushType.allCases.first(where: { $0.topicSuffix.map(topic.hasSuffix) ?? false }) {
            return LintPushTypeGuess(pushType: type, because: "the topic \(topic) ends in \(type.topicSuffix ?? "")")
        }
        let aps = payload["aps"]
        if aps?["content-available"]?.integerValue == 1 {
            return LintPushTypeGuess(pushType: .background, because: "aps has content-available: 1")
        }
        if aps?["event"] != nil {
            return LintPushTypeGuess(pushType: .liveactivity, because: "aps has an event")
        }
        return LintPushTypeGuess(pushType: .alert, because: "no content-available, no event")
    }

    /// The line `lint` prints above its findings.
    var note: String {
        "Push type: \(pushType.rawValue), inferred (\(because)); pass --push-type to lint as another."
    }
}
