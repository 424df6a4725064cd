import APNsModel
import DeviceSimulation
import Foundation
import JSON

/// The JSON form of a record: one line of a `--record` file, one item of the control API.
/// Field names are fixed and documented in docs/records.md ("Fields").
extension RecordedRequest {
    /// A record that could not be read back from JSON, with the field at fault.
    public struct DecodingError: Error, CustomStringConvertible {
        /// What was wrong, naming the field.
        public var description: String
    }

    /// The record as a JSON object, fields in their documented order: its JSON line (`JSONLineEncoder`, where the
    /// shape is written) parsed, so the file and the control API cannot drift apart. A record read from a line that
    /// it still encodes to (``RecordLineSource``) answers with that line's tree, parsed when it was read.
    public func jsonValue() -> JSONValue {
        if let readFrom, let tree = readFrom.tree(for: self) { return tree }   // read from a line: parsed once
        var encoder = JSONLineEncoder()
        encoder.encode(self, payloadAsValue: true)
        guard let value = try? JSONValue.parse(encoder.bytes) else {
            preconditionFailure("JSONLineEncoder wrote a line that does not parse")   // it writes only valid JSON
        }
        return value
    }

    /// The record as one line of JSON Lines (compact JSON and a newline); the same fields as `jsonValue()`.
    public func jsonLine() -> [UInt8] {
        var encoder = JSONLineEncoder()
        encoder.encode(self)
        return encoder.bytes
    }

    /// Reads a record back from its JSON form.
    public init(json: JSONValue) throws(DecodingError) {
        try self.init(json: json, payloadText: nil)
    }

    /// Reads a record back from its JSON form; `payloadText`, when given, is the text `json`'s payload was parsed
    /// from, kept as the body instead of encoding the parsed payload again.
    private init(json: JSONValue, payloadText: [UInt8]?) throws(DecodingError) {
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
            body = payloadText ?? Array(payload.jsonText().utf8)
        } else if let b64 = json["payload_base64"]?.stringValue {
            guard let bytes = Base64.decode(b64.utf8, alphabet: .standard, padding: .required) else {
                throw DecodingError(description: "record field \"payload_base64\" is not base64")
            }
            body = bytes
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
        instance = json["instance"]?.stringValue
        if let name = json["environment"] {
            guard let value = name.stringValue.flatMap(APNsEnvironment.init(rawValue:)) else {
                throw DecodingError(description: "record field \"environment\" must be \"development\" or \"production\"")
            }
            environment = value
        }
        if let link = json["fcm"], link != .null {
            guard let name = link["message_name"]?.stringValue, let project = link["project"]?.stringValue,
                  let token = link["registration_token"]?.stringValue else {
                throw DecodingError(description: "record field \"fcm\" must hold \"message_name\", \"project\" and \"registration_token\" strings")
            }
            fcm = FCMLink(messageName: name, project: project, registrationToken: token)
        }
        if let relayJSON = json["relay"], case .object = relayJSON {
            relay = RelayVerdict(
                status: Int(try int(relayJSON["status"], "relay.status")), reason: relayJSON["reason"]?.stringValue,
                apnsID: relayJSON["apns_id"]?.stringValue, apnsUniqueID: relayJSON["apns_unique_id"]?.stringValue,
                timestamp: relayJSON["timestamp"]?.integerValue, durationMicros: relayJSON["duration_us"]?.integerValue ?? 0,
                error: relayJSON["error"]?.stringValue, skipped: relayJSON["skipped"]?.stringValue)
        }
    }

    /// Reads a record from one line of a JSON Lines file.
    ///
    /// The record keeps the line and its parsed tree (``RecordLineSource``), and takes its body from the payload's
    /// text in the line: serving it as JSON then costs one encoding to check it is unchanged, not a second parse.
    public init(jsonLine: some Collection<UInt8>) throws(DecodingError) {
        let line = Array(jsonLine)
        let value: JSONValue
        do { value = try JSONValue.parse(line) } catch {
            throw DecodingError(description: "not a JSON record line: \(error)")
        }
        // `json["payload"]` is the last member of that name; its text is the value of that member in the line.
        var payloadText: [UInt8]?
        if case .object(let members) = value, let index = members.lastIndex(where: { $0.key == "payload" }) {
            payloadText = line.withUnsafeBufferPointer { bytes in
                RecordLineSource.valueRange(ofMember: index, in: bytes).map { Array(bytes[$0]) }
            }
        }
        try self.init(json: value, payloadText: payloadText)
        readFrom = RecordLineSource(line: line, parsed: value, seq: seq, instance: instance)
    }

    /// The value of a request header (first occurrence), by lowercase name.
    public func header(_ name: String) -> String? {
        headers.first(where: { $0.name == name })?.value
    }
}
