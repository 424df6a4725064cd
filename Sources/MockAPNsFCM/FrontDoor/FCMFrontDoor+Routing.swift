import FCMModel
import Foundation

/// One request to Google's APIs, as either of the listener's transports read it.
struct FCMCall: Sendable {
    var method: String
    /// The target as sent: the path, then `?` and the query if any.
    var target: String
    var contentType: String?
    var authorization: String?
    /// At most the front door's `maxBodyBytes`.
    var body: [UInt8]
    /// The body was longer than `maxBodyBytes`.
    var tooLarge: Bool
    /// `h2` or `http/1.1`.
    var transport: String
    /// `host:port` of the sender.
    var remote: String
}

extension FCMFrontDoor {
    /// Answers `call` by Google's three APIs, told apart by path alone (they do not overlap), so the mock's own FCM
    /// port and the one behind Google's names serve the same (fcm-rules §1):
    /// - `POST /v1/projects/{project}/messages:send` (FCM HTTP v1);
    /// - `POST /token` (the OAuth token exchange at `oauth2.googleapis.com`);
    /// - `POST /iid/v1:batchAdd` and `POST /iid/v1:batchRemove` (topic subscriptions at `iid.googleapis.com`);
    /// - `POST /v1/projects/{project}/registrations/{token}/topicSubscriptions?topic_name=` and
    ///   `DELETE …/topicSubscriptions/{topic}` (the FCM topics API firebase-admin 7.7 subscribes through).
    /// Anything else is 404 in Google's error shape.
    ///
    /// Every answer but a send's is given before this returns. A send awaits its APNs pushes in a task that prefers
    /// `executor` (the connection's loop, so a push the pipeline answers at once costs no thread hop), and answers from
    /// there.
    func respond(to call: FCMCall, executor: (any TaskExecutor)?, answer: @escaping @Sendable (FCMHTTPAnswer) -> Void) {
        let (path, query) = Self.split(call.target)
        let post = call.method == "POST"
        if let project = Self.sendProject(path) {
            guard post else { return answer(.methodNotAllowed(path)) }
            Task(executorPreference: executor) {
                answer(await self.send(project: project, authorization: call.authorization, contentType: call.contentType,
                                       body: call.body, tooLarge: call.tooLarge, transport: call.transport, remote: call.remote))
            }
        } else if path == "/token" {
            answer(post ? exchangeToken(contentType: call.contentType, body: call.body, tooLarge: call.tooLarge) : .methodNotAllowed(path))
        } else if path == "/iid/v1:batchAdd" || path == "/iid/v1:batchRemove" {
            answer(post ? manageTopics(subscribe: path.hasSuffix("batchAdd"), authorization: call.authorization,
                                       body: call.body, tooLarge: call.tooLarge)
                : .methodNotAllowed(path))
        } else if let (project, token, topic) = Self.topicSubscription(path) {
            let parameter = { (name: String) in query.last { $0.name == name }?.value }
            switch (call.method, topic) {
            case ("POST", nil):
                answer(subscribe(project: project, token: token, topic: parameter("topic_name"), authorization: call.authorization))
            case ("DELETE", let topic?):
                answer(unsubscribe(project: project, token: token, topic: topic, allowMissing: parameter("allow_missing") == "true",
                                   authorization: call.authorization))
            default:
                answer(.methodNotAllowed(path))
            }
        } else {
            answer(.notFound(path))
        }
    }

    /// The path and the query's fields (form-encoded, as Google's clients write them; none when it is not).
    static func split(_ target: String) -> (path: String, query: [FormURLEncoding.Field]) {
        var text = target
        // Found on the bytes (every request passes here; a send has no query).
        guard text.withUTF8({ $0.contains(UInt8(ascii: "?")) }) else { return (target, []) }
        let utf8 = target.utf8
        guard let mark = utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, []) }
        let query = FormURLEncoding.decode(utf8[utf8.index(after: mark)...]) ?? []
        return (String(target[..<mark]), query)
    }

    /// `{project}`, `{token}` and (for a DELETE) `{topic}` of
    /// `/v1/projects/{project}/registrations/{token}/topicSubscriptions[/{topic}]`, percent-decoded.
    static func topicSubscription(_ path: String) -> (project: String, token: String, topic: String?)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "v1", "projects", P, "registrations", T, "topicSubscriptions" [, topic]
        guard parts.count == 7 || parts.count == 8, parts[1] == "v1", parts[2] == "projects", parts[4] == "registrations",
              parts[6] == "topicSubscriptions", !parts[3].isEmpty, !parts[5].isEmpty else { return nil }
        let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
        let topic = parts.count == 8 ? decode(parts[7]) : nil
        if parts.count == 8, topic?.isEmpty != false { return nil }
        return (decode(parts[3]), decode(parts[5]), topic)
    }

    /// `{project}` of `/v1/projects/{project}/messages:send`, percent-decoded.
    static func sendProject(_ path: String) -> String? {
        // On the path's bytes: every send passes here, and String's prefix and suffix walk characters.
        var text = path
        let prefix: StaticString = "/v1/projects/", suffix: StaticString = "/messages:send"
        let project: Range<Int>? = text.withUTF8 { bytes in
            let (head, tail) = (prefix.utf8CodeUnitCount, suffix.utf8CodeUnitCount)
            guard bytes.count > head + tail, let base = bytes.baseAddress,
                  memcmp(base, prefix.utf8Start, head) == 0, memcmp(base + bytes.count - tail, suffix.utf8Start, tail) == 0
            else { return nil }
            let range = head..<(bytes.count - tail)
            return bytes[range].contains(UInt8(ascii: "/")) ? nil : range
        }
        guard let project else { return nil }
        let (name, encoded) = text.withUTF8 { bytes in
            (String(decoding: UnsafeBufferPointer(rebasing: bytes[project]), as: UTF8.self), bytes[project].contains(UInt8(ascii: "%")))
        }
        return encoded ? name.removingPercentEncoding ?? name : name
    }
}
