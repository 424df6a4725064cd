import APNsModel
extension PayloadLinter {
    /// Lints a recorded request: its body with its `apns-push-type`, `apns-priority` and `apns-topic` headers.
    ///
    /// A body that is not JSON gives one `payload-not-json` finding. Header values APNs would reject
    /// (an unknown push type, a priority other than 10, 5 or 1) are request-validation errors, not lint:
    /// they are read as absent here.
    public static func lint(request: APNsRequest) -> [LintFinding] {
        let payload: JSONValue
        do {
            payload = try JSONValue.parse(request.body)
        } catch {
            return [LintFinding(.payloadNotJSON, message: "the body is not JSON: \(error.description)", path: "$")]
        }
        return lint(
            payload: payload,
            pushType: request.value("apns-push-type").flatMap { PushType(rawValue: $0.lowercased()) },
            priority: request.value("apns-priority").flatMap { Int($0) }.flatMap(Priority.init(rawValue:)),
            topic: request.value("apns-topic"),
            payloadBytes: request.body.count)
    }
}
