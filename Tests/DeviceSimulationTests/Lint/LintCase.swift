@testable import APNsModel
@testable import DeviceSimulation

/// One lint scenario: a payload plus headers, and the rule that must (or must not) fire.
struct LintCase {
    let rule: LintRule
    let payload: String
    var pushType: PushType? = nil
    var priority: Priority? = nil
    var topic: String? = nil
    /// `nil` means the payload text's own UTF-8 length.
    var bytes: Int? = nil
    /// Lint through `lint(request:)`, with the headers as header fields and the payload text as the body.
    var viaRequest = false

    func findings() -> [LintFinding] {
        if viaRequest {
            var headers: [HeaderField] = []
            if let pushType { headers.append(HeaderField("apns-push-type", pushType.rawValue)) }
            if let priority { headers.append(HeaderField("apns-priority", String(priority.rawValue))) }
            if let topic { headers.append(HeaderField("apns-topic", topic)) }
            return PayloadLinter.lint(
                request: APNsRequest(
                    method: "POST", path: "/3/device/00", headers: headers, body: Array(payload.utf8)))
        }
        return PayloadLinter.lint(
            payload: json(payload), pushType: pushType, priority: priority, topic: topic,
            payloadBytes: bytes ?? payload.utf8.count)
    }
}
