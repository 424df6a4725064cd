import FCMModel
import Foundation
import JSON
import MockAPNs

extension FCMFrontDoor {
    /// `POST /v1/projects/{project}/messages:send` (fcm-rules §3–§5): the bearer token, the body, the message's
    /// rules, the target, then one delivery per device it names — on iOS the APNs push FCM sends, through the mock,
    /// whose answer becomes FCM's. `validate_only` runs every check and delivers nothing. Every request, refused or
    /// not, leaves one FCM record.
    func send(project pathProject: String, authorization: String?, contentType: String?, body: [UInt8], tooLarge: Bool,
              transport: String, remote: String) async -> FCMHTTPAnswer {
        var record = FCMRecord(sequence: 0, name: nil, project: pathProject, receivedAtMillis: mock.clock.nowMillis(),
                               transport: transport, remote: remote, validateOnly: false, target: nil, message: nil,
                               status: 200, answer: .null, deliveries: [])
        let answer = await decide(pathProject: pathProject, authorization: authorization, contentType: contentType,
                                  body: body, tooLarge: tooLarge, remote: remote, into: &record)
        record.status = answer.status
        record.answer = answer.json
        await keep(record)
        return answer
    }

    private func decide(pathProject: String, authorization: String?, contentType: String?, body: [UInt8], tooLarge: Bool,
                        remote: String, into record: inout FCMRecord) async -> FCMHTTPAnswer {
        // Who is asking: a bearer token the token exchange issued, unexpired, for this project.
        guard let bearer = Self.bearer(authorization) else { return FCMHTTPAnswer(FCMError.missingCredential()) }
        guard let grant = accessTokens.grant(for: bearer), grant.expiresAt > nowSeconds else {
            return FCMHTTPAnswer(FCMError.invalidCredential())
        }
        guard let project = projects.project(named: pathProject), project == grant.project else {
            return FCMHTTPAnswer(FCMError.permissionDenied(project: pathProject))
        }
        record.project = project
        if let contentType, !Self.isJSON(contentType) {
            return FCMHTTPAnswer(FCMError.invalidContentType(contentType))
        }
        if tooLarge { return FCMHTTPAnswer(FCMError.payloadTooLarge(limit: configuration.maxBodyBytes)) }
        let request: FCMSendRequest
        do {
            request = try FCMSendRequest.parse(body, limits: configuration.limits)
        } catch {
            let message = (try? JSONValue.parse(body))?["message"]
            record.message = message
            // The target as written, when the body has one, so a refused send is found by its token too.
            for kind in ["token", "topic", "condition", "fid"] {
                if let value = message?[kind]?.stringValue { record.target = (kind, value); break }
            }
            return FCMHTTPAnswer(error)
        }
        record.message = request.rawMessage
        record.validateOnly = request.validateOnly
        let message = request.message
        switch message.target {
        case .token(let token):
            record.target = ("token", token.token)
            return await sendToToken(token, message: message, project: project, validateOnly: request.validateOnly,
                                     remote: remote, into: &record)
        case .fid(let fid):
            record.target = ("fid", fid)
            guard let registration = registrations.all(project: project).first(where: { $0.fid == fid }) else {
                return FCMHTTPAnswer(FCMError.unregistered())
            }
            if !request.validateOnly,
               let fault = scriptedFault(project: project, registrationToken: registration.token, into: &record) {
                return fault
            }
            return await deliverOne(registration, message: message, project: project, validateOnly: request.validateOnly,
                                    remote: remote, into: &record)
        case .topic(let topic):
            record.target = ("topic", topic)
            let devices = registrations.subscribers(of: topic, project: project)
            return await fanOut(devices, topic: topic, message: message, project: project,
                                validateOnly: request.validateOnly, remote: remote, into: &record)
        case .condition(let condition):
            record.target = ("condition", condition.text)
            let devices = registrations.all(project: project).filter { condition.matches(subscribedTopics: $0.topics) }
            return await fanOut(devices, topic: nil, message: message, project: project,
                                validateOnly: request.validateOnly, remote: remote, into: &record)
        }
    }

    /// A message to one registration token (its shape checked by the message's rules): one the mock never issued is
    /// 404 UNREGISTERED (as FCM answers a stale one) unless `--fcm-accept-any-token`, one of another project 403
    /// SENDER_ID_MISMATCH.
    private func sendToToken(_ parsed: FCMRegistrationToken, message: FCMMessage, project: String, validateOnly: Bool, remote: String,
                             into record: inout FCMRecord) async -> FCMHTTPAnswer {
        let (token, fid) = (parsed.token, parsed.fid)
        var registration = registrations.registration(token)
        if registration == nil, let platform = configuration.acceptAnyToken {
            let apns = platform == .ios ? randomHex(bytes: 32) : nil
            let adopted = FCMRegistration(token: token, fid: fid, project: project, platform: platform,
                                          bundleID: "com.example.app", apnsToken: apns)
            registrations.adopt(adopted)
            registration = adopted
        }
        guard let registration else { return FCMHTTPAnswer(FCMError.unregistered()) }
        guard registration.project == project else { return FCMHTTPAnswer(FCMError.senderIDMismatch()) }
        if !validateOnly, let fault = scriptedFault(project: project, registrationToken: token, into: &record) { return fault }
        return await deliverOne(registration, message: message, project: project, validateOnly: validateOnly, remote: remote,
                                into: &record)
    }

    /// A message to one device: its name, or the error its delivery met.
    private func deliverOne(_ registration: FCMRegistration, message: FCMMessage, project: String, validateOnly: Bool,
                            remote: String, into record: inout FCMRecord) async -> FCMHTTPAnswer {
        if validateOnly {
            // Validation never contacts APNs (fcm-rules §3.12): a dry run to a device APNs would refuse succeeds.
            record.name = FCMSendAnswer.dryRunName(project: project)
            return Self.named(FCMSendAnswer.dryRunName(project: project))
        }
        let messageID = nextMessageID()
        let name = FCMSendAnswer.name(project: project, messageID: messageID, toTopic: false)
        let (delivery, error) = await deliver(message, to: registration, project: project, messageID: messageID,
                                              name: name, topic: nil, remote: remote)
        record.deliveries.append(delivery)
        if let error { return FCMHTTPAnswer(error) }
        record.name = name
        return Self.named(name)
    }

    /// A topic or condition message: one name answered, one delivery per device it reaches (none is an error: FCM
    /// accepts a send to a topic with no subscribers).
    private func fanOut(_ devices: [FCMRegistration], topic: String?, message: FCMMessage, project: String,
                        validateOnly: Bool, remote: String, into record: inout FCMRecord) async -> FCMHTTPAnswer {
        if validateOnly {
            record.name = FCMSendAnswer.dryRunName(project: project)
            return Self.named(FCMSendAnswer.dryRunName(project: project))
        }
        if let fault = scriptedFault(project: project, registrationToken: nil, into: &record) { return fault }
        let messageID = nextMessageID()
        let name = FCMSendAnswer.name(project: project, messageID: messageID, toTopic: true)
        for device in devices {
            let (delivery, _) = await deliver(message, to: device, project: project, messageID: messageID, name: name,
                                              topic: topic, remote: remote)
            record.deliveries.append(delivery)
        }
        record.name = name
        return Self.named(name)
    }

    /// Delivers to one device: an iOS one gets the APNs push FCM sends, through the mock; an Android one is the
    /// virtual Android device's (fcm-rules §6); a web one is recorded.
    private func deliver(_ message: FCMMessage, to registration: FCMRegistration, project: String, messageID: UInt64,
                         name: String, topic: String?, remote: String) async -> (FCMRecord.Delivery, FCMError?) {
        var delivery = FCMRecord.Delivery(token: registration.token, platform: registration.platform)
        if registration.platform == .android {
            switch androidDevices.deliver(message, name: name, to: registration.token, nowMillis: mock.clock.nowMillis()) {
            case .received(let receipt): delivery.android = receipt.handledBy.rawValue
            case .stored: delivery.android = "stored"
            case .dropped: delivery.android = "dropped"
            }
            return (delivery, nil)
        }
        guard registration.platform == .ios, let deviceToken = registration.apnsToken else { return (delivery, nil) }
        let push = APNsTranslation.translate(
            message, fid: registration.fid, senderID: FCMProjects.number(of: project), messageID: messageID, topic: topic,
            bundleID: registration.bundleID, nowSeconds: nowSeconds)
        let target = push.liveActivityToken ?? deviceToken
        delivery.apnsToken = target
        let link = RecordedRequest.FCMLink(messageName: name, project: project, registrationToken: registration.token)
        let outcome = await uplink.push(project: project, deviceToken: target, headers: push.headers, payload: push.payload,
                                        remote: remote, link: link)
        delivery.apnsID = outcome.apnsID
        if outcome.unanswered { return (delivery, FCMError.unavailable()) }
        delivery.apnsStatus = outcome.status
        delivery.apnsReason = outcome.reason
        return (delivery, FCMError.fromAPNs(status: outcome.status, reason: outcome.reason))
    }

    /// The answer of the fault plan's `fcm_error` rules that fire for this send, if any: the first one's status
    /// (every firing rule is counted and recorded). A dry run meets none: it delivers nothing, faults included.
    private func scriptedFault(project: String, registrationToken: String?, into record: inout FCMRecord) -> FCMHTTPAnswer? {
        let fired = mock.faults.fireFCM(project: project, registrationToken: registrationToken)
        guard let first = fired.first, case .fcmError(let status) = first.action else { return nil }
        record.faults = fired.map(\.name)
        switch status {
        case "QUOTA_EXCEEDED": return FCMHTTPAnswer(FCMError.quotaExceeded())
        case "INTERNAL": return FCMHTTPAnswer(FCMError.internalError())
        default: return FCMHTTPAnswer(FCMError.unavailable())
        }
    }

    private static func named(_ name: String) -> FCMHTTPAnswer {
        FCMHTTPAnswer(status: 200, json: FCMSendAnswer.json(name: name), body: FCMSendAnswer.body(name: name))
    }

    /// Whether a content type is `application/json` (any ASCII case, parameters after it allowed).
    static func isJSON(_ contentType: String) -> Bool {
        var text = contentType
        return text.withUTF8 { startsIgnoringCase($0, "application/json") }
    }

    /// Whether `bytes` start with `lowercase` (ASCII), compared without ASCII case: on the bytes, as every send
    /// checks its headers.
    static func startsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { wanted in
            guard bytes.count >= wanted.count else { return false }
            for index in 0..<wanted.count {
                let byte = bytes[index]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != wanted[index] { return false }
            }
            return true
        }
    }

    /// The token of `Bearer TOKEN` (any case of the scheme; spaces and tabs around the token ignored).
    static func bearer(_ authorization: String?) -> String? {
        guard var text = authorization else { return nil }
        // On the header's bytes (every send passes here): "bearer" in any ASCII case, a space, the token.
        let token: Range<Int>? = text.withUTF8 { bytes in
            guard bytes.count > 7, bytes[6] == UInt8(ascii: " "), startsIgnoringCase(bytes, "bearer") else { return nil }
            let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            var start = 7, end = bytes.count
            while start < end, blank(bytes[start]) { start += 1 }
            while end > start, blank(bytes[end - 1]) { end -= 1 }
            return start < end ? start..<end : nil
        }
        guard let token else { return nil }
        if token.lowerBound == 7, token.upperBound == text.utf8.count { return String(text.utf8.dropFirst(7)) }
        return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[token]), as: UTF8.self) }
    }
}
