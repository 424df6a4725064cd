import APNsCrypto
import FCMModel
import JSON
import MockAPNs
import XCTest
@testable import MockAPNsFCM

/// The FCM front door without a socket: the token exchange, `messages:send` and topic management called as its
/// listener calls them, over a real `Mock`, whose recording shows what the iPhone was sent.
final class FCMFrontDoorTests: XCTestCase {
    private var mock: Mock!
    private var frontDoor: FCMFrontDoor!
    private var account: ServiceAccount!

    override func setUpWithError() throws {
        mock = try Mock(configuration: MockConfiguration())
        frontDoor = try FCMFrontDoor(mock: mock, configuration: FCMConfiguration(), logger: .init(label: "test"))
        account = try frontDoor.projects.makeServiceAccount(project: "mockapns-test")
    }

    override func tearDown() {
        mock.shutdown()
    }

    // MARK: Helpers

    /// The grant google-auth posts for `account`, signed by `signer` (the account's own key by default).
    private func grant(_ account: ServiceAccount, signer: RSAPrivateKey? = nil, audience: String = ServiceAccount.googleTokenURI,
                       scope: String = "https://www.googleapis.com/auth/cloud-platform", issuer: String? = nil,
                       lifetime: Int64 = 3600) throws -> [UInt8] {
        let now = Int64(Date().timeIntervalSince1970)
        let header = #"{"typ":"JWT","alg":"RS256","kid":"\#(account.privateKeyID)"}"#
        let claims = JSONValue.object([
            .init("iss", .string(issuer ?? account.clientEmail)), .init("scope", .string(scope)), .init("aud", .string(audience)),
            .init("iat", .integer(now)), .init("exp", .integer(now + lifetime)),
        ]).jsonText()
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let key = try signer ?? RSAPrivateKey(pem: account.privateKeyPEM)
        let jwt = input + "." + Base64URL.encode(try key.signRS256(Array(input.utf8)))
        return Array("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(jwt)".utf8)
    }

    private func accessToken(_ account: ServiceAccount? = nil) throws -> String {
        let answer = frontDoor.exchangeToken(contentType: "application/x-www-form-urlencoded", body: try grant(account ?? self.account),
                                             tooLarge: false)
        XCTAssertEqual(answer.status, 200, String(decoding: answer.body, as: UTF8.self))
        return try XCTUnwrap(try JSONValue.parse(answer.body)["access_token"]?.stringValue)
    }

    private func send(_ message: String, project: String = "mockapns-test", token: String?, validateOnly: Bool = false) async -> (Int, JSONValue) {
        let body = #"{"validate_only": \#(validateOnly), "message": \#(message)}"#
        let answer = await frontDoor.send(project: project, authorization: token.map { "Bearer " + $0 }, contentType: "application/json",
                                          body: Array(body.utf8), tooLarge: false, transport: "h2", remote: "127.0.0.1:1")
        return (answer.status, (try? JSONValue.parse(answer.body)) ?? .null)
    }

    private func iPhone() throws -> FCMRegistration {
        try frontDoor.register(project: "mockapns-test", platform: .ios, bundleID: "com.example.app", apnsToken: nil)
    }

    private static func errorCode(_ answer: JSONValue) -> String? {
        answer.value(at: ["error", "details"])?.arrayElements?.first { $0["@type"]?.stringValue?.hasSuffix("FcmError") == true }?["errorCode"]?.stringValue
    }

    // MARK: OAuth

    func testAGrantSignedByTheAccountsKeyGetsABearerTokenAndAnyOtherSignatureDoesNot() throws {
        XCTAssertTrue(try accessToken().hasPrefix("ya29."))
        let stranger = try RSAPrivateKey.generate()
        let forged = frontDoor.exchangeToken(contentType: nil, body: try grant(account, signer: stranger), tooLarge: false)
        XCTAssertEqual(forged.status, 400)
        XCTAssertEqual(try JSONValue.parse(forged.body)["error"]?.stringValue, "invalid_grant")
        let wrongIssuer = frontDoor.exchangeToken(contentType: nil, body: try grant(account, issuer: "someone@else.iam.gserviceaccount.com"),
                                                  tooLarge: false)
        XCTAssertEqual(try JSONValue.parse(wrongIssuer.body)["error"]?.stringValue, "invalid_grant")
        let longLived = frontDoor.exchangeToken(contentType: nil, body: try grant(account, lifetime: 7200), tooLarge: false)
        XCTAssertEqual(longLived.status, 400, "a grant may live an hour at most")
        let noScope = frontDoor.exchangeToken(contentType: nil, body: try grant(account, scope: "https://www.googleapis.com/auth/userinfo.email"),
                                              tooLarge: false)
        XCTAssertEqual(noScope.status, 400, "neither cloud-platform nor firebase.messaging")
        let garbage = frontDoor.exchangeToken(contentType: nil, body: Array("grant_type=password".utf8), tooLarge: false)
        XCTAssertEqual(garbage.status, 400)
    }

    func testASendNeedsABearerTokenOfItsOwnProject() async throws {
        let device = try iPhone()
        let message = #"{"token": "\#(device.token)", "notification": {"title": "Hi"}}"#
        let (missing, missingBody) = await send(message, token: nil)
        XCTAssertEqual(missing, 401)
        XCTAssertEqual(missingBody.value(at: ["error", "status"])?.stringValue, "UNAUTHENTICATED")
        let (unknown, _) = await send(message, token: "ya29.not-issued")
        XCTAssertEqual(unknown, 401)
        let other = try frontDoor.projects.makeServiceAccount(project: "other-project")
        let (foreign, foreignBody) = await send(message, token: try accessToken(other))
        XCTAssertEqual(foreign, 403)
        XCTAssertEqual(foreignBody.value(at: ["error", "status"])?.stringValue, "PERMISSION_DENIED")
        XCTAssertTrue(mock.recorder.records().isEmpty, "nothing reached APNs")
        XCTAssertEqual(frontDoor.records.records().map(\.status), [401, 401, 403], "every request is recorded")
    }

    // MARK: iOS delivery

    func testAnIOSMessageBecomesTheAPNsPushFCMSendsAndItsRecordsLink() async throws {
        let device = try iPhone()
        let (status, body) = await send(#"{"token": "\#(device.token)", "notification": {"title": "Order", "body": "Shipped"}, "data": {"order": "42"}}"#,
                                        token: try accessToken())
        XCTAssertEqual(status, 200, body.jsonText())
        let name = try XCTUnwrap(body["name"]?.stringValue)
        XCTAssertTrue(name.hasPrefix("projects/mockapns-test/messages/"), name)
        let pushes = mock.recorder.records()
        XCTAssertEqual(pushes.count, 1)
        let push = try XCTUnwrap(pushes.first)
        XCTAssertEqual(push.deviceToken, device.apnsToken)
        XCTAssertEqual(push.response.status, 200)
        XCTAssertEqual(push.payload?.value(at: ["aps", "alert", "title"])?.stringValue, "Order")
        XCTAssertEqual(push.payload?.value(at: ["aps", "alert", "body"])?.stringValue, "Shipped")
        XCTAssertEqual(push.payload?["order"]?.stringValue, "42", "data keys sit beside aps")
        XCTAssertNotNil(push.payload?["gcm.message_id"])
        XCTAssertEqual(push.payload?["google.c.fid"]?.stringValue, device.fid)
        XCTAssertEqual(push.payload?["google.c.sender.id"]?.stringValue, FCMProjects.number(of: "mockapns-test"))
        XCTAssertEqual(push.headers.first { $0.name == "apns-topic" }?.value, "com.example.app")
        let record = try XCTUnwrap(frontDoor.records.records().last)
        XCTAssertEqual(record.name, name)
        XCTAssertEqual(record.apnsIDs, [try XCTUnwrap(push.response.apnsID)], "the FCM record names the APNs record")
        XCTAssertEqual(push.fcm, RecordedRequest.FCMLink(messageName: name, project: "mockapns-test", registrationToken: device.token),
                       "and the APNs record names the FCM message")
        let line = try JSONValue.parse(push.jsonLine())
        XCTAssertEqual(line.value(at: ["fcm", "message_name"])?.stringValue, name, "the link is in the record's line (file, store, API)")
        XCTAssertEqual(try RecordedRequest(jsonLine: push.jsonLine()).fcm, push.fcm, "and reads back")
    }

    func testFCMErrorRulesInTheFaultPlanFailSendsBeforeDeliveryAndNeverAnAPNsPush() async throws {
        let token = try accessToken()
        let device = try iPhone(), other = try iPhone()
        let rule = #"{"name": "fcm down once", "match": {"project": "mockapns-test", "registration_token": "\#(device.token)"}, "count": 1, "action": {"type": "fcm_error", "status": "UNAVAILABLE"}}"#
        mock.faults.add(try FaultRule(json: try JSONValue.parse(Array(rule.utf8))))
        // The same device's APNs token pushed directly meets none of the front door's rules.
        let message = #"{"token": "\#(device.token)", "notification": {"title": "Hi"}}"#
        let (first, firstBody) = await send(message, token: token)
        XCTAssertEqual(first, 503)
        XCTAssertEqual(Self.errorCode(firstBody), "UNAVAILABLE")
        XCTAssertTrue(mock.recorder.records().isEmpty, "refused before anything is delivered")
        XCTAssertEqual(frontDoor.records.records().last?.faults, ["fcm down once"])
        let (second, _) = await send(message, token: token)
        XCTAssertEqual(second, 200, "count 1: the retry gets through")
        XCTAssertEqual(mock.recorder.records().count, 1)
        XCTAssertEqual(mock.recorder.records().first?.faults, [], "the APNs push met no fault")

        mock.faults.add(FaultRule(project: "mockapns-test", action: .fcmError(status: "QUOTA_EXCEEDED")))
        let (dryRun, _) = await send(#"{"token": "\#(other.token)", "notification": {"title": "Hi"}}"#, token: token, validateOnly: true)
        XCTAssertEqual(dryRun, 200, "a dry run meets no fault")
        let (quota, quotaBody) = await send(#"{"topic": "news", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(quota, 429, "a project rule fails topic sends too")
        XCTAssertEqual(Self.errorCode(quotaBody), "QUOTA_EXCEEDED")
        XCTAssertEqual(mock.faults.entries.map(\.fired), [1, 1])
    }

    func testAPNsRefusalsReachTheSenderAsFirebaseReportsThem() async throws {
        let token = try accessToken()
        let gone = try iPhone()
        try mock.devices.set(try XCTUnwrap(gone.apnsToken), .unregistered(timestamp: nil))
        let (status, body) = await send(#"{"token": "\#(gone.token)", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(status, 404)
        XCTAssertEqual(Self.errorCode(body), "UNREGISTERED")
        let apnsError = body.value(at: ["error", "details"])?.arrayElements?.first { $0["@type"]?.stringValue?.hasSuffix("ApnsError") == true }
        XCTAssertEqual(apnsError?["statusCode"]?.integerValue, 410)
        XCTAssertEqual(apnsError?["reason"]?.stringValue, "Unregistered")

        let busy = try iPhone()
        mock.faults.add(FaultRule(token: busy.apnsToken, action: .status(429, reason: "TooManyRequests")))
        let (quota, quotaBody) = await send(#"{"token": "\#(busy.token)", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(quota, 429)
        XCTAssertEqual(Self.errorCode(quotaBody), "QUOTA_EXCEEDED")

        let down = try iPhone()
        mock.faults.add(FaultRule(token: down.apnsToken, action: .status(503, reason: "ServiceUnavailable")))
        let (unavailable, unavailableBody) = await send(#"{"token": "\#(down.token)", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(unavailable, 503)
        XCTAssertEqual(Self.errorCode(unavailableBody), "UNAVAILABLE")
    }

    func testADryRunChecksEverythingAndDeliversNothing() async throws {
        let device = try iPhone()
        let token = try accessToken()
        let (status, body) = await send(#"{"token": "\#(device.token)", "notification": {"title": "Hi"}}"#, token: token, validateOnly: true)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["name"]?.stringValue, "projects/mockapns-test/messages/fake_message_id")
        XCTAssertEqual(frontDoor.records.records().last?.name, "projects/mockapns-test/messages/fake_message_id",
                       "the record has the name answered")
        XCTAssertEqual(frontDoor.records.records().last?.validateOnly, true)
        let (bad, badBody) = await send(#"{"token": "\#(device.token)", "data": {"n": 1}}"#, token: token, validateOnly: true)
        XCTAssertEqual(bad, 400, "a dry run still checks the message")
        XCTAssertEqual(badBody.value(at: ["error", "status"])?.stringValue, "INVALID_ARGUMENT")
        let violation = badBody.value(at: ["error", "details"])?.arrayElements?.first { $0["fieldViolations"] != nil }
        XCTAssertEqual(violation?["fieldViolations"]?.arrayElements?.first?["field"]?.stringValue?.hasPrefix("message.data"), true,
                       badBody.jsonText())
        XCTAssertTrue(mock.recorder.records().isEmpty)
    }

    func testTokensTheMockNeverIssuedAreUnregisteredAndMalformedOnesInvalid() async throws {
        let token = try accessToken()
        let stale = "cAbCdEfGhIjKlMnOpQrStU:APA91b" + String(repeating: "x", count: 134)
        let (status, body) = await send(#"{"token": "\#(stale)", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(status, 404)
        XCTAssertEqual(Self.errorCode(body), "UNREGISTERED")
        let (malformed, malformedBody) = await send(#"{"token": "not-a-token", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(malformed, 400)
        XCTAssertEqual(Self.errorCode(malformedBody), "INVALID_ARGUMENT")
        let other = try frontDoor.projects.makeServiceAccount(project: "other-project")
        let theirs = try frontDoor.register(project: "other-project", platform: .ios, bundleID: "com.example.app", apnsToken: nil)
        _ = other
        let (mismatch, mismatchBody) = await send(#"{"token": "\#(theirs.token)", "notification": {"title": "Hi"}}"#, token: token)
        XCTAssertEqual(mismatch, 403)
        XCTAssertEqual(Self.errorCode(mismatchBody), "SENDER_ID_MISMATCH")
    }

    // MARK: Topics

    func testATopicSendReachesEverySubscriberOnceAndAConditionOnlyTheMatchingOnes() async throws {
        let token = try accessToken()
        let first = try iPhone(), second = try iPhone(), third = try iPhone()
        let add = #"{"to": "/topics/news", "registration_tokens": ["\#(first.token)", "\#(second.token)", "cAbCdEfGhIjKlMnOpQrStU:APA91bzz"]}"#
        let answer = frontDoor.manageTopics(subscribe: true, authorization: "Bearer " + token, body: Array(add.utf8), tooLarge: false)
        XCTAssertEqual(answer.status, 200)
        let results = try JSONValue.parse(answer.body)["results"]?.arrayElements
        XCTAssertEqual(results?.count, 3)
        XCTAssertEqual(results?[0], .object([]))
        XCTAssertEqual(results?[2]["error"]?.stringValue, "NOT_FOUND")
        let sports = #"{"to": "/topics/sports", "registration_tokens": ["\#(second.token)", "\#(third.token)"]}"#
        _ = frontDoor.manageTopics(subscribe: true, authorization: "Bearer " + token, body: Array(sports.utf8), tooLarge: false)

        let (status, body) = await send(#"{"topic": "news", "notification": {"title": "Extra"}}"#, token: token)
        XCTAssertEqual(status, 200, body.jsonText())
        XCTAssertEqual(Set(mock.recorder.records().compactMap(\.deviceToken)), Set([first.apnsToken, second.apnsToken].compactMap { $0 }))
        XCTAssertEqual(mock.recorder.records().first?.payload?["from"]?.stringValue, "/topics/news")

        let before = mock.recorder.records().count
        let (conditional, _) = await send(#"{"condition": "'news' in topics && 'sports' in topics", "notification": {"title": "Both"}}"#,
                                          token: token)
        XCTAssertEqual(conditional, 200)
        XCTAssertEqual(mock.recorder.records().dropFirst(before).compactMap(\.deviceToken), [second.apnsToken].compactMap { $0 })
    }

    func testTheTopicsAPISubscribesOneTokenAndUnsubscribesIt() async throws {
        let token = try accessToken()
        let device = try iPhone()
        let subscribed = frontDoor.subscribe(project: "mockapns-test", token: device.token, topic: "news", authorization: "Bearer " + token)
        XCTAssertEqual(subscribed.status, 200, String(decoding: subscribed.body, as: UTF8.self))
        XCTAssertEqual(frontDoor.registrations.registration(device.token)?.topics, ["news"])
        let stranger = frontDoor.subscribe(project: "mockapns-test", token: "cAbCdEfGhIjKlMnOpQrStU:APA91bzz", topic: "news",
                                           authorization: "Bearer " + token)
        XCTAssertEqual(stranger.status, 404)
        XCTAssertEqual(frontDoor.subscribe(project: "mockapns-test", token: device.token, topic: "bad topic",
                                           authorization: "Bearer " + token).status, 400)
        XCTAssertEqual(frontDoor.subscribe(project: "mockapns-test", token: device.token, topic: "news", authorization: nil).status, 401)
        XCTAssertEqual(frontDoor.unsubscribe(project: "mockapns-test", token: device.token, topic: "news", allowMissing: false,
                                             authorization: "Bearer " + token).status, 200)
        XCTAssertEqual(frontDoor.registrations.registration(device.token)?.topics, [])
        XCTAssertEqual(frontDoor.unsubscribe(project: "mockapns-test", token: device.token, topic: "news", allowMissing: false,
                                             authorization: "Bearer " + token).status, 404, "no such subscription")
        XCTAssertEqual(frontDoor.unsubscribe(project: "mockapns-test", token: device.token, topic: "news", allowMissing: true,
                                             authorization: "Bearer " + token).status, 200, "allow_missing")
        XCTAssertEqual(FCMFrontDoor.topicSubscription("/v1/projects/p-1/registrations/a%3Ab/topicSubscriptions")?.token, "a:b")
        XCTAssertEqual(FCMFrontDoor.topicSubscription("/v1/projects/p-1/registrations/t/topicSubscriptions/news")?.topic, "news")
        XCTAssertNil(FCMFrontDoor.topicSubscription("/v1/projects/p-1/registrations/t/other"))
    }

    func testBothTransportsReadTheRequestOneWay() {
        XCTAssertEqual(FCMFrontDoor.bearer("Bearer abc"), "abc")
        XCTAssertEqual(FCMFrontDoor.bearer("bEARER \tabc  "), "abc", "any case of the scheme, blanks around the token")
        XCTAssertNil(FCMFrontDoor.bearer("Basic abc"))
        XCTAssertNil(FCMFrontDoor.bearer("Bearer"))
        XCTAssertNil(FCMFrontDoor.bearer("Bearer  \t "))
        XCTAssertNil(FCMFrontDoor.bearer(nil))
        XCTAssertEqual(FCMFrontDoor.sendProject("/v1/projects/p-1/messages:send"), "p-1")
        XCTAssertEqual(FCMFrontDoor.sendProject("/v1/projects/p%2D1/messages:send"), "p-1", "percent-decoded")
        XCTAssertNil(FCMFrontDoor.sendProject("/v1/projects/a/b/messages:send"))
        XCTAssertNil(FCMFrontDoor.sendProject("/v1/projects//messages:send"))
        let (path, query) = FCMFrontDoor.split("/v1/projects/p/registrations/t/topicSubscriptions?topic_name=a%20b&allow_missing=true")
        XCTAssertEqual(path, "/v1/projects/p/registrations/t/topicSubscriptions")
        XCTAssertEqual(query.map(\.name), ["topic_name", "allow_missing"])
        XCTAssertEqual(query.first?.value, "a b")
        XCTAssertEqual(FCMFrontDoor.split("/token").path, "/token")
    }

    // MARK: Android

    func testAnAndroidDeviceHandlesMessagesAsItsAppStateSaysAndGetsWhatFCMStoredWhenItComesBack() async throws {
        let token = try accessToken()
        let phone = try frontDoor.register(project: "mockapns-test", platform: .android, bundleID: "com.example.app", apnsToken: nil)
        func send(_ fields: String) async -> (Int, JSONValue) {
            await self.send(#"{"token": "\#(phone.token)", \#(fields)}"#, token: token)
        }
        func handled() -> [String?] { frontDoor.records.records().last?.deliveries.map(\.android) ?? [] }
        let (status, _) = await send(#""notification": {"title": "Sale"}, "data": {"sku": "1"}"#)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(handled(), ["system_tray"], "a notification to an app in the background goes to the tray")
        XCTAssertEqual(frontDoor.androidDevices.snapshot(phone.token).received.last?.dataInIntent, true)
        _ = await send(#""data": {"sku": "2"}"#)
        XCTAssertEqual(handled(), ["on_message_received"], "a data message always goes to the app")
        frontDoor.androidDevices.update(phone.token, appInForeground: true, online: nil, nowMillis: frontDoor.nowMillis)
        _ = await send(#""notification": {"title": "Sale"}"#)
        XCTAssertEqual(handled(), ["on_message_received"], "in the foreground, everything goes to the app")
        XCTAssertTrue(mock.recorder.records().isEmpty, "nothing goes through APNs")

        frontDoor.androidDevices.update(phone.token, appInForeground: nil, online: false, nowMillis: frontDoor.nowMillis)
        _ = await send(#""data": {"n": "now"}, "android": {"ttl": "0s"}"#)
        XCTAssertEqual(handled(), ["dropped"], "ttl 0 is now or never")
        for n in 1...3 { _ = await send(#""data": {"n": "\#(n)"}, "android": {"collapse_key": "score"}"#) }
        _ = await send(#""data": {"n": "plain"}"#)
        XCTAssertEqual(handled(), ["stored"])
        XCTAssertEqual(frontDoor.androidDevices.snapshot(phone.token).stored.count, 4)
        let back = frontDoor.androidDevices.update(phone.token, appInForeground: nil, online: true, nowMillis: frontDoor.nowMillis)
        XCTAssertEqual(back.map { $0.data.value(forKey: "n") }, ["3", "plain"], "the latest of a collapse key, and the rest")
        XCTAssertEqual(back.map(\.fromStorage), [true, true])
        XCTAssertEqual(back.map(\.handledBy), [.onMessageReceived, .onMessageReceived])
        XCTAssertEqual(frontDoor.androidDevices.snapshot(phone.token).stored, [])

        frontDoor.androidDevices.update(phone.token, appInForeground: nil, online: false, nowMillis: frontDoor.nowMillis)
        for n in 0...FCMAndroidHandling.maximumPendingMessages { _ = await send(#""data": {"n": "\#(n)"}"#) }
        let flooded = frontDoor.androidDevices.update(phone.token, appInForeground: nil, online: true, nowMillis: frontDoor.nowMillis)
        XCTAssertEqual(flooded.map(\.handledBy), [.onDeletedMessages], "past 100 stored, the app is told they were deleted")
    }
}
