import APNsModel

extension Pipeline {
    /// What the decision path made of one request: the answer, the faults fired, what the record keeps.
    struct Outcome {
        var status = 200
        var reasonText: String?
        var timestamp: Int64?
        var extraHeaders: [HeaderField] = []
        var body: [UInt8]?
        var firedFaults: [String] = []
        var disposition = PipelineDisposition.respond
        var delay: Duration?
        var route: Route?
        /// The accepted push's payload, as the push holds it (nil: no push was accepted).
        var payload: PayloadSource?
        var apnsID: String?
        var isBroadcast = false
        /// Counted faults shared through a store that match and must be claimed before the request is answered.
        var pendingClaims: [(id: String, rule: FaultRule)] = []

        mutating func reject(_ reason: APNsReason, timestamp: Int64? = nil) {
            status = reason.status
            reasonText = reason.rawValue
            self.timestamp = timestamp
        }

        /// What a success becomes while the record file cannot be written: the mock claims no success it cannot
        /// keep a record of (APNs's own answer to a server-side failure).
        mutating func refuseUnrecordable() {
            reject(.internalServerError)
            extraHeaders = []
            body = nil
        }
    }
}
