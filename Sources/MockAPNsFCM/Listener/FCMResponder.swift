import Hummingbird
import NIOCore

/// Google's three APIs on one port, told apart by path alone (they do not overlap), so the mock's own FCM port and
/// the one behind Google's names serve the same (fcm-rules §1):
/// - `POST /v1/projects/{project}/messages:send` (FCM HTTP v1);
/// - `POST /token` (the OAuth token exchange at `oauth2.googleapis.com`);
/// - `POST /iid/v1:batchAdd` and `POST /iid/v1:batchRemove` (topic subscriptions at `iid.googleapis.com`);
/// - `POST /v1/projects/{project}/registrations/{token}/topicSubscriptions?topic_name=` and
///   `DELETE …/topicSubscriptions/{topic}` (the FCM topics API firebase-admin 7.7 subscribes through).
/// Anything else is 404 in Google's error shape.
struct FCMResponder: HTTPResponder {
    typealias Context = FCMRequestContext
    let frontDoor: FCMFrontDoor

    func respond(to request: Request, context: FCMRequestContext) async throws -> Response {
        let path = request.uri.path
        var request = request
        let limit = frontDoor.configuration.maxBodyBytes
        var tooLarge = false
        var body: [UInt8] = []
        do {
            let buffer = try await request.collectBody(upTo: limit)
            body = Array(buffer.readableBytesView)
        } catch {
            tooLarge = true
        }
        let contentType = request.headers[.contentType]
        let answer: FCMHTTPAnswer
        if path == "/token" {
            answer = request.method == .post ? frontDoor.exchangeToken(contentType: contentType, body: body, tooLarge: tooLarge)
                : .methodNotAllowed(path)
        } else if path == "/iid/v1:batchAdd" || path == "/iid/v1:batchRemove" {
            answer = request.method == .post
                ? frontDoor.manageTopics(subscribe: path.hasSuffix("batchAdd"), authorization: request.headers[.authorization],
                                         body: body, tooLarge: tooLarge)
                : .methodNotAllowed(path)
        } else if let (project, token, topic) = Self.topicSubscription(path) {
            let query = request.uri.queryParameters
            switch request.method {
            case .post where topic == nil:
                answer = frontDoor.subscribe(project: project, token: token, topic: query["topic_name"].map(String.init),
                                             authorization: request.headers[.authorization])
            case .delete where topic != nil:
                answer = frontDoor.unsubscribe(project: project, token: token, topic: topic!,
                                               allowMissing: query["allow_missing"] == "true",
                                               authorization: request.headers[.authorization])
            default:
                answer = .methodNotAllowed(path)
            }
        } else if let project = Self.sendProject(path) {
            answer = request.method == .post
                ? await frontDoor.send(project: project, authorization: request.headers[.authorization], contentType: contentType,
                                       body: body, tooLarge: tooLarge, transport: context.transport, remote: context.remote)
                : .methodNotAllowed(path)
        } else {
            answer = .notFound(path)
        }
        var headers: HTTPFields = [.contentType: answer.contentType]
        if answer.status == 401 { headers[.wwwAuthenticate] = "Bearer realm=\"https://accounts.google.com/\"" }
        return Response(status: .init(code: answer.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
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
        let prefix = "/v1/projects/", suffix = "/messages:send"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.utf8.count > prefix.utf8.count + suffix.utf8.count else { return nil }
        let project = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !project.contains("/") else { return nil }
        return String(project).removingPercentEncoding ?? String(project)
    }
}
