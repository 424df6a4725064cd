import APNsModel

extension RecordedRequest {
    /// The record with its payload lint findings filled in (what APNs accepts but a device may mishandle).
    ///
    /// Lint is a pure function of the recorded headers and payload, so the recorder computes it off the
    /// request path: on the file writer's thread, for queries, and for live subscribers.
    public func withLint() -> RecordedRequest {
        guard lint.isEmpty, let payload, method == "POST", deviceToken != nil else { return self }
        let findings = PayloadLinter.lint(
            payload: payload,
            pushType: header("apns-push-type").flatMap(PushType.init(rawValue:)),
            priority: header("apns-priority").flatMap { Int($0) }.flatMap(Priority.init(rawValue:)),
            topic: header("apns-topic"),
            payloadBytes: payloadBytes)
        guard !findings.isEmpty else { return self }
        var copy = self
        copy.lint = findings
        return copy
    }
}
