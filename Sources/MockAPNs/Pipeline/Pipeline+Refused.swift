import APNsModel

extension Pipeline {
    /// Records a request the transport answered itself before the pipeline saw it (431: header list too large),
    /// with what was read of it, so a sender's worst mistakes leave a trace like every other answer.
    ///
    /// Nothing of it is decided: it is not authenticated (its token may be cut off), no fault fires, no state
    /// changes. APNs documents no reason for 431, so the record has none.
    package func recordRefused(_ request: APNsRequest, on connection: PipelineConnection, status: Int) {
        let elapsed = Int64((Timestamp.monotonicNanos() &- connection.receivedAtNanos) / 1000)
        let auth = RecordedRequest.Authentication(kind: request.value("authorization") == nil ? "none" : "token")
        let response = RecordedRequest.Response(status: status, reason: nil, apnsID: request.value("apns-id"))
        let record = self.record(
            of: request, on: connection, deviceToken: Self.deviceToken(in: request.path),
            payloadSource: .body(request.body), auth: auth, response: response, faults: [],
            durationMicros: elapsed)
        recorder.appendNumbered(record)
    }
}
