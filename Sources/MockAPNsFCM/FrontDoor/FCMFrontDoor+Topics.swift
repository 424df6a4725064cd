import FCMModel
import JSON

extension FCMFrontDoor {
    /// `POST /iid/v1:batchAdd` and `:batchRemove` (fcm-rules §1.3): `{"to": "/topics/NAME", "registration_tokens": […]}`
    /// under the bearer token of the tokens' project; one result per token, `{}` when done or `{"error": …}` in IID's
    /// words, as firebase-admin's `TopicManagementResponse` reads them.
    func manageTopics(subscribe: Bool, authorization: String?, body: [UInt8], tooLarge: Bool) -> FCMHTTPAnswer {
        guard let bearer = Self.bearer(authorization), let grant = accessTokens.grant(for: bearer),
              grant.expiresAt > nowSeconds else {
            return Self.iidError(401, "Unauthorized")
        }
        guard !tooLarge, let json = try? JSONValue.parse(body), json.isJSONObject else {
            return Self.iidError(400, "InvalidJson: the body must be {\"to\": \"/topics/NAME\", \"registration_tokens\": [...]}")
        }
        guard let to = json["to"]?.stringValue, to.hasPrefix("/topics/") else {
            return Self.iidError(400, "InvalidParameters: \"to\" must be /topics/NAME")
        }
        let topic = String(to.dropFirst("/topics/".count))
        guard FCMTopic.isValidName(topic) else {
            return Self.iidError(400, "InvalidParameters: the topic name must match [a-zA-Z0-9-_.~%]+")
        }
        guard let tokens = json["registration_tokens"]?.arrayElements, !tokens.isEmpty, tokens.count <= 1000 else {
            return Self.iidError(400, "InvalidParameters: \"registration_tokens\" must list 1 to 1000 tokens")
        }
        var results: [JSONValue] = []
        for element in tokens {
            guard let token = element.stringValue, (try? FCMRegistrationToken.parse(token)) != nil else {
                results.append(.object([.init("error", .string("INVALID_ARGUMENT"))]))
                continue
            }
            switch registrations.subscribe(token, to: topic, project: grant.project, subscribe: subscribe) {
            case .done: results.append(.object([]))
            case .notFound: results.append(.object([.init("error", .string("NOT_FOUND"))]))
            case .otherProject: results.append(.object([.init("error", .string("PERMISSION_DENIED"))]))
            case .tooManyTopics: results.append(.object([.init("error", .string("TOO_MANY_TOPICS"))]))
            }
        }
        return FCMHTTPAnswer(status: 200, json: .object([.init("results", .array(results))]))
    }

    /// `POST /v1/projects/{project}/registrations/{token}/topicSubscriptions?topic_name=T` (fcm-rules §1.3): one
    /// token to one topic, under the project's bearer token; answers the subscription resource.
    func subscribe(project pathProject: String, token: String, topic: String?, authorization: String?) -> FCMHTTPAnswer {
        switch topicRequest(pathProject: pathProject, token: token, topic: topic, authorization: authorization) {
        case .failure(let refusal): return refusal.answer
        case .success(let (project, topic)):
            switch registrations.subscribe(token, to: topic, project: project, subscribe: true) {
            case .done:
                let name = "projects/\(project)/registrations/\(token)/topicSubscriptions/\(topic)"
                return FCMHTTPAnswer(status: 200, json: .object([.init("name", .string(name)), .init("topicName", .string(topic))]))
            case .notFound: return FCMHTTPAnswer(FCMError.unregistered())
            case .otherProject: return FCMHTTPAnswer(FCMError.senderIDMismatch())
            case .tooManyTopics: return FCMHTTPAnswer(FCMError.invalidArgument("The registration token has too many topics."))
            }
        }
    }

    /// `DELETE /v1/projects/{project}/registrations/{token}/topicSubscriptions/{topic}[?allow_missing=true]`: ends a
    /// subscription; one that does not exist is 404 unless `allow_missing`.
    func unsubscribe(project pathProject: String, token: String, topic: String, allowMissing: Bool, authorization: String?) -> FCMHTTPAnswer {
        switch topicRequest(pathProject: pathProject, token: token, topic: topic, authorization: authorization) {
        case .failure(let refusal): return refusal.answer
        case .success(let (project, topic)):
            let subscribed = registrations.registration(token)?.topics.contains(topic) == true
            switch registrations.subscribe(token, to: topic, project: project, subscribe: false) {
            case .done where subscribed || allowMissing: return FCMHTTPAnswer(status: 200, json: .object([]))
            case .done, .notFound: return FCMHTTPAnswer(FCMError.unregistered())
            case .otherProject: return FCMHTTPAnswer(FCMError.senderIDMismatch())
            case .tooManyTopics: return FCMHTTPAnswer(status: 200, json: .object([]))
            }
        }
    }

    /// The checks both topic-subscription calls share: the bearer token of the path's project, a token of FCM's
    /// shape and a topic name.
    private func topicRequest(pathProject: String, token: String, topic: String?,
                              authorization: String?) -> Result<(String, String), TopicRefusal> {
        guard let bearer = Self.bearer(authorization) else { return .failure(TopicRefusal(FCMHTTPAnswer(FCMError.missingCredential()))) }
        guard let grant = accessTokens.grant(for: bearer), grant.expiresAt > nowSeconds else {
            return .failure(TopicRefusal(FCMHTTPAnswer(FCMError.invalidCredential())))
        }
        guard let project = projects.project(named: pathProject), project == grant.project else {
            return .failure(TopicRefusal(FCMHTTPAnswer(FCMError.permissionDenied(project: pathProject))))
        }
        guard (try? FCMRegistrationToken.parse(token)) != nil else {
            return .failure(TopicRefusal(FCMHTTPAnswer(FCMError.invalidRegistrationToken())))
        }
        guard let topic, FCMTopic.isValidName(topic) else {
            return .failure(TopicRefusal(FCMHTTPAnswer(FCMError.invalidArgument(
                "topic_name must be a topic name: [a-zA-Z0-9-_.~%]+", field: "topic_name",
                description: "Invalid topic name."))))
        }
        return .success((project, topic))
    }

    /// A refused topic-subscription call's answer (a `Result` failure needs an `Error`).
    struct TopicRefusal: Error {
        var answer: FCMHTTPAnswer
        init(_ answer: FCMHTTPAnswer) { self.answer = answer }
    }

    private static func iidError(_ status: Int, _ message: String) -> FCMHTTPAnswer {
        FCMHTTPAnswer(status: status, json: .object([.init("error", .string(message))]))
    }
}
