import APNsModel
import Foundation

/// The JSON form of a record: one line of a `--record` file, one item of the control API.
/// Field names are fixed and documented in the README ("Recorded fields").
extension RecordedRequest {
    /// A record that could not be read back from JSON, with the field at fault.
    public struct DecodingError: Error, CustomStringConvertible {
        /// What was wrong, naming the field.
        public var description: String
    }

    /// The record as a JSON object, fields in their documented order.
    public func jsonValue() -> JSONValue {
        typealias M = JSONValue.JSONMember
        var members: [M] = [
            M("seq", .integer(Int64(seq))),
            M("received_at", .string(Timestamp.iso8601(millis: receivedAtMillis))),
            M("connection_id", .integer(Int64(connectionID))),
            M("stream_id", .integer(Int64(streamID))),
            M("remote", .string(remote)),
            M("method", .string(method)),
            M("path", .string(path)),
            M("device_token", deviceToken.map(JSONValue.string) ?? .null),
            M("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })),
        ]
        if let payload {
            members.append(M("payload", payload))
        } else {
            members.append(M("payload_base64", .string(Data(body).base64EncodedString())))
        }
        members.append(M("payload_bytes", .integer(Int64(payloadBytes))))
        members.append(M("auth", .object([
            M("kind", .string(auth.kind)),
            M("team_id", auth.teamID.map(JSONValue.string) ?? .null),
            M("key_id", auth.keyID.map(JSONValue.string) ?? .null),
            M("issued_at", auth.issuedAt.map(JSONValue.integer) ?? .null),
            M("topics", .array(auth.topics.map(JSONValue.string))),
        ])))
        members.append(M("response", .object([
            M("status", .integer(Int64(response.status))),
            M("reason", response.reason.map(JSONValue.string) ?? .null),
            M("apns_id", response.apnsID.map(JSONValue.string) ?? .null),
            M("apns_unique_id", response.apnsUniqueID.map(JSONValue.string) ?? .null),
            M("timestamp", response.timestamp.map(JSONValue.integer) ?? .null),
        ])))
        members.append(M("faults", .array(faults.map(JSONValue.string))))
        members.append(M("lint", .array(lint.map {
            .object([M("id", .string($0.id)), M("severity", .string($0.severity.rawValue)),
                     M("path", .string($0.path)), M("message", .string($0.message))])
        })))
        members.append(M("duration_us", .integer(durationMicros)))
        return .object(members)
    }

    /// The record as one line of JSON Lines (compact JSON and a newline); the same fields as `jsonValue()`.
    public func jsonLine() -> [UInt8] {
        var encoder = JSONLineEncoder()
        encoder.encode(self)
        return encoder.bytes
    }

    /// Reads a record back from its JSON form.
    public init(json: JSONValue) throws(DecodingError) {
        func field(_ name: String) throws(DecodingError) -> JSONValue {
            guard let value = json[name] else { throw DecodingError(description: "record has no \"\(name)\" field") }
            return value
        }
        func int(_ value: JSONValue?, _ name: String) throws(DecodingError) -> Int64 {
            guard let i = value?.integerValue else { throw DecodingError(description: "record field \"\(name)\" is not an integer") }
            return i
        }
        func string(_ value: JSONValue?, _ name: String) throws(DecodingError) -> String {
            guard let s = value?.stringValue else { throw DecodingError(description: "record field \"\(name)\" is not a string") }
            return s
        }
        guard case .object = json else { throw DecodingError(description: "a record must be a JSON object, found \(json.typeName)") }
        let receivedText = try string(try field("received_at"), "received_at")
        guard let receivedAt = Timestamp.parseISO8601(receivedText) else {
            throw DecodingError(description: "record field \"received_at\" is not an ISO-8601 time: \(receivedText)")
        }
        var headers: [HeaderField] = []
        guard case .array(let pairs) = try field("headers") else { throw DecodingError(description: "record field \"headers\" is not a list") }
        for pair in pairs {
            guard case .array(let nv) = pair, nv.count == 2, let n = nv[0].stringValue, let v = nv[1].stringValue else {
                throw DecodingError(description: "record field \"headers\" must hold [name, value] pairs")
            }
            headers.append(HeaderField(name: n, value: v))
        }
        let payload = json["payload"]
        var body: [UInt8] = []
        if let payload {
            body = Array(payload.jsonText().utf8)
        } else if let b64 = json["payload_base64"]?.stringValue {
            guard let data = Data(base64Encoded: b64) else { throw DecodingError(description: "record field \"payload_base64\" is not base64") }
            body = Array(data)
        }
        let authJSON = try field("auth")
        let responseJSON = try field("response")
        var lint: [LintFinding] = []
        if case .array(let items) = json["lint"] ?? .array([]) {
            for item in items {
                lint.append(LintFinding(
                    id: item["id"]?.stringValue ?? "",
                    severity: item["severity"]?.stringValue.flatMap(LintFinding.Severity.init(rawValue:)) ?? .info,
                    message: item["message"]?.stringValue ?? "", path: item["path"]?.stringValue ?? ""))
            }
        }
        func strings(_ value: JSONValue?) -> [String] {
            guard case .array(let items) = value else { return [] }
            return items.compactMap(\.stringValue)
        }
        self.init(
            seq: UInt64(max(0, try int(try field("seq"), "seq"))),
            receivedAtMillis: receivedAt,
            connectionID: UInt64(max(0, try int(try field("connection_id"), "connection_id"))),
            streamID: Int32(truncatingIfNeeded: try int(try field("stream_id"), "stream_id")),
            remote: try string(try field("remote"), "remote"),
            method: try string(try field("method"), "method"),
            path: try string(try field("path"), "path"),
            deviceToken: json["device_token"]?.stringValue,
            headers: headers,
            body: body,
            payload: payload,
            payloadBytes: Int(try int(try field("payload_bytes"), "payload_bytes")),
            auth: Authentication(
                kind: try string(authJSON["kind"], "auth.kind"),
                teamID: authJSON["team_id"]?.stringValue, keyID: authJSON["key_id"]?.stringValue,
                issuedAt: authJSON["issued_at"]?.integerValue, topics: strings(authJSON["topics"])),
            response: Response(
                status: Int(try int(responseJSON["status"], "response.status")),
                reason: responseJSON["reason"]?.stringValue, apnsID: responseJSON["apns_id"]?.stringValue,
                apnsUniqueID: responseJSON["apns_unique_id"]?.stringValue, timestamp: responseJSON["timestamp"]?.integerValue),
            faults: strings(json["faults"]),
            lint: lint,
            durationMicros: (try? int(json["duration_us"], "duration_us")) ?? 0
        )
    }

    /// Reads a record from one line of a JSON Lines file.
    public init(jsonLine: some Collection<UInt8>) throws(DecodingError) {
        let value: JSONValue
        do { value = try JSONValue.parse(jsonLine) } catch {
            throw DecodingError(description: "not a JSON record line: \(error)")
        }
        try self.init(json: value)
    }

    /// The value of a request header (first occurrence), by lowercase name.
    public func header(_ name: String) -> String? {
        headers.first(where: { $0.name == name })?.value
    }
}
