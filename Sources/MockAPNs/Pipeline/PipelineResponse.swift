import APNsModel

/// The pipeline's answer to one request as the transport carries it out: made from the ``PipelineDecision``, beside
/// the record.
package struct PipelineResponse: Sendable {
    /// HTTP status.
    package var status: Int
    /// Response headers (`apns-id`, `apns-unique-id`, `content-type`…).
    package var headers: [HeaderField]
    /// Body: empty for success, `{"reason":…}` for errors.
    package var body: [UInt8]
    /// What the transport does with it.
    package var disposition: PipelineDisposition
    /// Wait this long before acting (a `delay` fault); nil = at once.
    package var delay: Duration?
    /// Announce this MAX_CONCURRENT_STREAMS on the connection (1 after a rejection before any success,
    /// the full limit again after the first success).
    package var streamLimit: UInt32?
}

extension PipelineResponse {
    /// This response as `500 InternalServerError`, for a request whose record was lost before it was answered
    /// (`--record-sync` with a failing disk): no success is claimed without its record.
    func unrecorded() -> PipelineResponse {
        guard status < 300 else { return self }
        var response = self
        response.status = APNsReason.internalServerError.status
        response.headers = headers.filter { $0.name == "apns-id" || $0.name == "apns-request-id" }
        response.headers.append(HeaderField(name: "content-type", value: "application/json"))
        response.body = Pipeline.reasonBody(APNsReason.internalServerError.rawValue, timestamp: nil)
        return response
    }
}
