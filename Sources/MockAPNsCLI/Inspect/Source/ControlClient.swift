import APNsModel
import Foundation
import MockAPNsRecording

/// Talks to a running mock's control plane (`/api/v1/…`); as a ``RecordSource``, reads the records it serves.
struct ControlClient: RecordSource {
    /// E.g. `http://127.0.0.1:2198`.
    let baseURL: URL
    /// Sent as `authorization: Bearer <token>` when set.
    let token: String?

    /// `GET /api/v1/notifications` with the filter as query.
    func records(matching filter: RecordFilter) async throws(InspectError) -> [RecordedRequest] {
        let body = try await get("api/v1/notifications", query: filter.queryItems)
        guard case .array(let items)? = body["notifications"] else {
            throw .server(url: baseURL.absoluteString, status: 200, message: "the answer has no \"notifications\" array.")
        }
        return try items.map { item throws(InspectError) in try Self.record(from: item, url: baseURL) }
    }

    /// `GET /api/v1/notifications/{id}` (sequence number or apns-id); nil on its 404.
    func record(_ id: String) async throws(InspectError) -> RecordedRequest? {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
        do {
            return try Self.record(from: try await get("api/v1/notifications/\(escaped)", query: []), url: baseURL)
        } catch {
            guard case .notFound = error else { throw error }
            return nil
        }
    }

    /// The control plane's URL.
    var label: String { baseURL.absoluteString }

    /// `GET /api/v1/devices/{token}/screen?at=` and `…/timeline?until=` as sent: what the device shows at `at`
    /// (nil: now on the mock's clock) and its timeline's entries up to then.
    func device(_ token: String, at: Int64?) async throws(InspectError) -> (screen: JSONValue, entries: JSONValue) {
        let escaped = token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? token
        let screen = try await get("api/v1/devices/\(escaped)/screen", query: at.map { [("at", String($0))] } ?? [])
        let instant = screen["at"]?.integerValue ?? at
        let timeline = try await get("api/v1/devices/\(escaped)/timeline", query: instant.map { [("until", String($0))] } ?? [])
        return (screen, timeline["entries"] ?? .array([]))
    }

    /// `GET /api/v1/stats` as sent.
    func statistics() async throws(InspectError) -> JSONValue {
        try await get("api/v1/stats", query: [])
    }

    /// `GET /api/v1/stream` as records (gap events, which name records the server no longer had, are left out: see
    /// `events(matching:includeExisting:)`).
    func follow(matching filter: RecordFilter, includeExisting: Bool) throws(InspectError) -> AsyncThrowingStream<RecordedRequest, any Error> {
        let events = self.events(matching: filter, includeExisting: includeExisting)
        let url = baseURL
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        guard case .record(let data) = event else { continue }
                        continuation.yield(try Self.record(from: data, url: url))
                    }
                    continuation.finish()
                } catch let error as EventStreamReader.Failure {
                    continuation.finish(throwing: Self.translate(error, url: url))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What the live stream delivers to a follower.
    enum StreamEvent: Sendable {
        /// A record's JSON line (the `--record` file's format), as sent.
        case record(String)
        /// Records the server no longer held when this follower reached them.
        case gap(ClosedRange<UInt64>)
    }

    /// `GET /api/v1/stream` as events: records, and gaps where this follower fell behind what the server keeps.
    func events(matching filter: RecordFilter, includeExisting: Bool) -> AsyncThrowingStream<StreamEvent, any Error> {
        var filter = filter
        filter.limit = nil
        if includeExisting, filter.since == nil { filter.since = 0 }
        let url = baseURL
        let events = EventStreamReader.events(url: address("api/v1/stream", query: filter.queryItems), token: token)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        switch event.name {
                        case nil:
                            continuation.yield(.record(event.data))
                        case "gap"?:
                            let json = try Self.parse(Array(event.data.utf8), url: url)
                            guard let from = json["from"]?.integerValue, let through = json["through"]?.integerValue,
                                  from >= 0, through >= from else {
                                throw InspectError.server(url: url.absoluteString, status: 200,
                                                          message: "a gap event does not name a range: \(event.data)")
                            }
                            continuation.yield(.gap(UInt64(from)...UInt64(through)))
                        default:
                            continue   // events of later versions
                        }
                    }
                    continuation.finish()
                } catch let error as EventStreamReader.Failure {
                    continuation.finish(throwing: Self.translate(error, url: url))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A parsed record from a stream event's data.
    static func record(from data: String, url: URL) throws(InspectError) -> RecordedRequest {
        try record(from: try parse(Array(data.utf8), url: url), url: url)
    }

    /// The URL of `path` under the base URL, with `query` percent-encoded.
    func address(_ path: String, query: [(String, String)]) -> String {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        return (components?.url ?? baseURL).absoluteString
    }

    /// GETs `path` and parses the JSON answer; non-2xx answers become ``InspectError``s.
    func get(_ path: String, query: [(String, String)]) async throws(InspectError) -> JSONValue {
        let status: Int
        let data: [UInt8]
        do {
            (status, data) = try await ControlHTTP.get(address(path, query: query), token: token, timeout: 10)
        } catch {
            throw .unreachable(url: baseURL.absoluteString, reason: error.description)
        }
        let body = try? JSONValue.parse(data)
        guard (200..<300).contains(status) else {
            let message = body?["error"]?.stringValue ?? String(decoding: data, as: UTF8.self)
            if status == 404 && (path.hasPrefix("api/v1/notifications/") || path.hasPrefix("api/v1/fcm/messages/")) {
                throw .notFound(message)
            }
            throw .server(url: baseURL.absoluteString, status: status, message: message)
        }
        guard let body else {
            throw .server(url: baseURL.absoluteString, status: status, message: "the answer is not JSON; is this a mockapns control plane?")
        }
        return body
    }

    private static func parse(_ bytes: [UInt8], url: URL) throws(InspectError) -> JSONValue {
        do { return try JSONValue.parse(bytes) } catch {
            throw .server(url: url.absoluteString, status: 200, message: "an event is not JSON (\(error)).")
        }
    }

    private static func record(from json: JSONValue, url: URL) throws(InspectError) -> RecordedRequest {
        do { return try RecordedRequest(json: json) } catch {
            throw .server(url: url.absoluteString, status: 200, message: "a record does not decode (\(error)); are the CLI and server the same version?")
        }
    }

    private static func translate(_ failure: EventStreamReader.Failure, url: URL) -> InspectError {
        switch failure {
        case .transport(let reason): return .unreachable(url: url.absoluteString, reason: reason)
        case .status(let status, let body):
            let message = (try? JSONValue.parse(Array(body.utf8)))?["error"]?.stringValue ?? body
            return .server(url: url.absoluteString, status: status, message: message)
        }
    }
}
