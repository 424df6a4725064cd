import APNsModel

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
