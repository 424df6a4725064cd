import APNsModel
import Foundation
import MockAPNsRecording

/// A HAR 1.2 archive of records, loadable by a browser's network panel and HAR viewers.
///
/// Each record becomes one entry: the request as sent (method, absolute URL under ``baseURL``, headers,
/// JSON body), the response the mock gave (status, `apns-id`/`apns-unique-id`, the `{"reason"}` body),
/// and timings from `duration_us`. Records the mock never answered (stalls, resets) get status 0, as
/// browsers do for aborted requests. Extra facts sit in `_mockapns` fields, which HAR allows.
struct HARDocument {
    /// Scheme and authority prefixed to each record's path.
    let baseURL: String
    /// The creator version written into `log.creator`.
    let creatorVersion: String

    /// The archive as JSON.
    func json(for records: [RecordedRequest]) -> JSONValue {
        document(entries: .array(records.map(entry)))
    }

    /// The archive around `entries` (an array of ``entry(_:)`` values): how the export streams its entries into it.
    func document(entries: JSONValue) -> JSONValue {
        .object([
            .init("log", .object([
                .init("version", .string("1.2")),
                .init("creator", .object([.init("name", .string("mockapns")), .init("version", .string(creatorVersion))])),
                .init("entries", entries),
            ]))
        ])
    }

    /// One HAR entry.
    func entry(_ record: RecordedRequest) -> JSONValue {
        let millis = Double(record.durationMicros) / 1000
        let httpVersion = record.streamID == 0 ? "HTTP/1.1" : "HTTP/2"
        return .object([
            .init("startedDateTime", .string(RecordText.timestamp(record.receivedAtMillis))),
            .init("time", .double(millis)),
            .init("request", request(record, httpVersion: httpVersion)),
            .init("response", response(record, httpVersion: httpVersion)),
            .init("cache", .object([])),
            .init("timings", .object([
                .init("blocked", .integer(-1)), .init("dns", .integer(-1)), .init("connect", .integer(-1)),
                .init("ssl", .integer(-1)), .init("send", .integer(0)), .init("wait", .double(millis)), .init("receive", .integer(0)),
            ])),
            .init("connection", .string(String(record.connectionID))),
            .init("_mockapns", .object([
                .init("seq", .integer(Int64(record.seq))),
                .init("stream_id", .integer(Int64(record.streamID))),
                .init("remote", .string(record.remote)),
                .init("faults", .array(record.faults.map { .string($0) })),
                .init("lint", .array(record.lint.map { .string("\($0.severity.rawValue) \($0.id) at \($0.path): \($0.message)") })),
            ])),
        ])
    }

    private func request(_ record: RecordedRequest, httpVersion: String) -> JSONValue {
        let query = Self.split(record.path).1
        var members: [JSONValue.JSONMember] = [
            .init("method", .string(record.method)),
            .init("url", .string(baseURL + record.path)),
            .init("httpVersion", .string(httpVersion)),
            .init("cookies", .array([])),
            .init("headers", .array(record.headers.map { Self.nameValue($0.name, $0.value) })),
            .init("queryString", .array(query.map { Self.nameValue($0.0, $0.1) })),
            .init("headersSize", .integer(-1)),
            .init("bodySize", .integer(Int64(record.payloadBytes))),
        ]
        if !record.body.isEmpty {
            let mimeType = RecordText.header(record, "content-type") ?? "application/json"
            members.append(.init("postData", .object([
                .init("mimeType", .string(mimeType)),
                .init("params", .array([])),
                .init("text", .string(String(decoding: record.body, as: UTF8.self))),
            ])))
        }
        return .object(members)
    }

    private func response(_ record: RecordedRequest, httpVersion: String) -> JSONValue {
        let answer = record.response
        var headers: [JSONValue] = []
        if let id = answer.apnsID { headers.append(Self.nameValue("apns-id", id)) }
        if let unique = answer.apnsUniqueID { headers.append(Self.nameValue("apns-unique-id", unique)) }
        var text = ""
        if let reason = answer.reason {
            var body: [JSONValue.JSONMember] = [.init("reason", .string(reason))]
            if let timestamp = answer.timestamp { body.append(.init("timestamp", .integer(timestamp))) }
            text = JSONValue.object(body).jsonText()
            headers.append(Self.nameValue("content-type", "application/json"))
        }
        return .object([
            .init("status", .integer(Int64(answer.status))),
            .init("statusText", .string(Self.statusText(answer.status))),
            .init("httpVersion", .string(httpVersion)),
            .init("cookies", .array([])),
            .init("headers", .array(headers)),
            .init("content", .object([
                .init("size", .integer(Int64(text.utf8.count))),
                .init("mimeType", .string(text.isEmpty ? "x-unknown" : "application/json")),
                .init("text", .string(text)),
            ])),
            .init("redirectURL", .string("")),
            .init("headersSize", .integer(-1)),
            .init("bodySize", .integer(answer.status == 0 ? -1 : Int64(text.utf8.count))),
        ])
    }

    /// `{"name": …, "value": …}`.
    static func nameValue(_ name: String, _ value: String) -> JSONValue {
        .object([.init("name", .string(name)), .init("value", .string(value))])
    }

    /// The path and its decoded query pairs.
    static func split(_ target: String) -> (String, [(String, String)]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: mark)...].split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1)
            let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
        return (String(target[..<mark]), query)
    }

    /// The reason phrase browsers show for the statuses APNs uses.
    static func statusText(_ status: Int) -> String {
        switch status {
        case 0: return ""
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 410: return "Gone"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}
