import APNsModel

/// What ``Pipeline/process(_:on:later:)`` gives a transport back: the answer now, or a promise that the `later`
/// completion it was handed will be called once with it.
///
/// Every transport (HTTP/2, HTTP/1.1, in memory) branches on this and nothing else, so a relayed push, a counted
/// fault shared through a store and a `--record-sync` write behave alike whichever protocol carried the request.
package enum PipelineAnswer: Sendable {
    /// The answer is ready: carry it out. The `later` completion is never called.
    case now(PipelineResponse)
    /// The answer comes through the `later` completion, from another thread: after the record is written
    /// (`--record-sync`), after the upstream answered (`--relay`), or after the store granted or refused a counted
    /// fault's firing.
    case later
}

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

/// What happens to the exchange once the pipeline has decided, in APNs's terms: each transport maps them to its
/// protocol (HTTP/2 resets a stream and sends GOAWAY; HTTP/1.1 has one request per connection at a time, so it
/// closes the connection for both).
package enum PipelineDisposition: Sendable, Equatable {
    /// Send the response.
    case respond
    /// Send nothing, ever (a `stall` fault).
    case stall
    /// Abandon this request's exchange without an answer, the connection staying up (a `reset` fault; on HTTP/2 an
    /// RST_STREAM with this error code).
    case abortStream(errorCode: UInt32)
    /// Leave the request unanswered and close the connection saying why, as APNs does when it shuts a connection
    /// (a `goaway` fault; on HTTP/2 a GOAWAY with this code and `reasonBody`, `{"reason":…}`, as its debug data).
    case closeConnection(errorCode: UInt32, reasonBody: [UInt8])
    /// Close the connection without a word (a `drop` fault: the TCP connection just ends).
    case dropConnection
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

extension Pipeline {
    /// What the sender gets for `outcome`, and the same answer as the record shows it: the ID it was answered with
    /// (`apns-id`, or `apns-request-id` on the broadcast and channel-management APIs) as sent or generated, an
    /// `apns-unique-id` for a development or broadcast success, the reason body of an error. A fault that breaks the
    /// exchange answers nothing, and the record says so (status 0, no IDs).
    func wireAnswer(to outcome: PipelineDecision, request: APNsRequest, on connection: PipelineConnection,
                    streamLimit: UInt32?) -> (PipelineResponse, RecordedRequest.Response) {
        var headers: [HeaderField] = []
        headers.reserveCapacity(3 + outcome.extraHeaders.count)   // one allocation: id, unique id, content type
        // Broadcast and channel-management answers carry `apns-request-id`, never `apns-id`, whether the request
        // was accepted or refused, also before its route was resolved (apns-rules §1.2, §3.5): decided by path (every
        // broadcast route is on one of these paths).
        let idField = Self.isBroadcastAPI(path: request.path) ? Self.requestIDField : Self.apnsIDField
        // Echoed as sent (clients match on it), else generated; the record keeps a generated ID as its bits.
        let apnsID: RecordedRequest.Response.IDSource
        if let sent = request.value(lowercaseName: idField.name) {
            apnsID = .text(sent)
            headers.append(Self.field(idField, value: sent))
        } else {
            let generated = APNsIDGenerator.nextID()
            apnsID = .generated(generated)
            headers.append(Self.field(idField, value: generated.text))
        }
        var uniqueID = RecordedRequest.Response.IDSource.text(nil)
        let environment = connection.environment ?? configuration.environment
        if outcome.status == 200, environment == .development || outcome.route.map(Self.isBroadcastSend) == true {
            let generated = APNsIDGenerator.nextID()
            uniqueID = .generated(generated)
            headers.append(Self.field(Self.uniqueIDField, value: generated.text))
        }
        headers.append(contentsOf: outcome.extraHeaders)
        var body: [UInt8] = []
        if let reasonText = outcome.reasonText, outcome.status >= 300 {
            body = Self.reasonBody(reasonText, timestamp: outcome.timestamp)
            headers.append(Self.contentTypeJSON)
        } else if let payload = outcome.body {
            body = payload
            headers.append(Self.contentTypeJSON)
        }
        let answered = outcome.disposition == .respond
        let recorded = RecordedRequest.Response(
            status: answered ? outcome.status : 0, reason: outcome.reasonText, apnsID: answered ? apnsID : .text(nil),
            apnsUniqueID: answered ? uniqueID : .text(nil), timestamp: outcome.timestamp)
        let answer = PipelineResponse(status: outcome.status, headers: headers, body: body,
                                      disposition: outcome.disposition, delay: outcome.delay, streamLimit: streamLimit)
        return (answer, recorded)
    }

    // The response's header fields by name, made once: `HeaderField(name:value:)` checks that a name is lowercase
    // (a scan of it) every time, and these names are constants.
    // The ID fields are new on every answer: marked so the HTTP/2 connection keeps them out of its HPACK table.
    private static let apnsIDField = HeaderField(lowercaseName: "apns-id", value: "", valueIsUnique: true)
    private static let requestIDField = HeaderField(lowercaseName: "apns-request-id", value: "", valueIsUnique: true)
    private static let uniqueIDField = HeaderField(lowercaseName: "apns-unique-id", value: "", valueIsUnique: true)
    private static let contentTypeJSON = HeaderField(name: "content-type", value: "application/json")

    /// `template` (a constant name) with `value`.
    @inline(__always)
    private static func field(_ template: HeaderField, value: String) -> HeaderField {
        var field = template
        field.value = value
        return field
    }

    /// Whether `path` is on the broadcast push (`/4/broadcasts/…`) or channel-management (`/1/apps/…`) API, whose
    /// answers identify themselves with `apns-request-id`.
    static func isBroadcastAPI(path: String) -> Bool {
        path.utf8.starts(with: "/4/broadcasts".utf8) || path.utf8.starts(with: "/1/apps".utf8)
    }

    private static func isBroadcastSend(_ route: Route) -> Bool {
        if case .broadcast = route { return true }
        return false
    }

    /// `{"reason":"…"}`, plus `"timestamp"` (ms) for 410s: APNs's error body.
    package static func reasonBody(_ reason: String, timestamp: Int64?) -> [UInt8] {
        var members: [JSONValue.JSONMember] = [.init("reason", .string(reason))]
        if let timestamp { members.append(.init("timestamp", .integer(timestamp))) }
        return Array(JSONValue.object(members).jsonText().utf8)
    }
}
