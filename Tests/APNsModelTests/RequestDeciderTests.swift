import APNsModel
import ModelTestSupport
import XCTest

final class RequestDeciderTests: XCTestCase {
    private let app = "com.example.app"

    func testAcceptedPushCarriesEveryHeader() throws {
        let request = Requests.device([("apns-topic", app), ("apns-push-type", "alert"),
                                       ("apns-id", "123e4567-e89b-12d3-a456-4266554400a0"), ("apns-expiration", "1900000000"),
                                       ("apns-priority", "5"), ("apns-collapse-id", "c1")])
        let push = try XCTUnwrap(Requests.decide(request).accepted)
        XCTAssertEqual(push.route, .device(token: Requests.token64))
        XCTAssertEqual(push.deviceToken, Requests.token64)
        XCTAssertEqual(push.topic, app)
        XCTAssertEqual(push.pushType, .alert)
        XCTAssertFalse(push.pushTypeInferred)
        XCTAssertEqual(push.priority, .considerPower)
        XCTAssertEqual(push.apnsID, "123e4567-e89b-12d3-a456-4266554400a0")
        XCTAssertEqual(push.expiration, 1_900_000_000)
        XCTAssertEqual(push.collapseID, "c1")
        XCTAssertEqual(push.payload.jsonText(), #"{"aps":{"alert":"Hello"}}"#)
        XCTAssertEqual(Verdict.accepted(push).status, 200)
    }

    func testDefaults() throws {
        let push = try XCTUnwrap(Requests.decide(Requests.device([("apns-topic", app)])).accepted)
        XCTAssertEqual(push.pushType, .alert)
        XCTAssertTrue(push.pushTypeInferred)
        XCTAssertEqual(push.priority, .immediate)
        XCTAssertNil(push.apnsID)
        XCTAssertNil(push.expiration)
        XCTAssertNil(push.collapseID)

        let background = try XCTUnwrap(Requests.decide(Requests.device([("apns-topic", app)], body: #"{"aps":{"content-available":1}}"#)).accepted)
        XCTAssertEqual(background.pushType, .background)
        XCTAssertEqual(background.priority, .considerPower)

        let explicit = try XCTUnwrap(Requests.decide(Requests.device([("apns-topic", app), ("apns-push-type", "background")],
                                                                     body: #"{"aps":{"content-available":1}}"#)).accepted)
        XCTAssertEqual(explicit.priority, .considerPower, "no header on a background push: 5, not the general default 10")
    }

    /// Each pair: a request broken in two ways; the rule that comes first in the documented order answers.
    func testRuleOrder() {
        let good: [(String, String)] = [("apns-topic", app), ("apns-push-type", "alert")]
        let odd = String(Requests.token64.dropLast())
        let cases: [(APNsRequest, ProviderCredential, APNsReason, String)] = [
            (Requests.device(good, method: "GET"), .none, .methodNotAllowed, "route before credential"),
            (Requests.device(good + [("apns-topic", app)]), .none, .duplicateHeaders, "duplicates before credential"),
            (Requests.device(good, token: odd), .none, .missingProviderToken, "credential before token format"),
            (Requests.device(good, token: odd), .malformedToken, .invalidProviderToken, "malformed token before token format"),
            (Requests.device([("apns-topic", app), ("apns-push-type", "nope")], token: odd), TestCredentials.tokenCredential(), .badDeviceToken, "token format before push type"),
            (Requests.device([("apns-push-type", "nope")]), TestCredentials.tokenCredential(), .invalidPushType, "push type before topic"),
            (Requests.device([("apns-push-type", "alert"), ("apns-id", "x")]), TestCredentials.tokenCredential(), .missingTopic, "topic before apns-id"),
            (Requests.device(good + [("apns-id", "x"), ("apns-expiration", "x")]), TestCredentials.tokenCredential(), .badMessageId, "apns-id before expiration"),
            (Requests.device(good + [("apns-expiration", "x"), ("apns-priority", "x")]), TestCredentials.tokenCredential(), .badExpirationDate, "expiration before priority"),
            (Requests.device(good + [("apns-priority", "x"), ("apns-collapse-id", String(repeating: "c", count: 65))]), TestCredentials.tokenCredential(), .badPriority, "priority before collapse id"),
            (Requests.device(good + [("apns-collapse-id", String(repeating: "c", count: 65))], body: ""), TestCredentials.tokenCredential(), .badCollapseId, "headers before body"),
            (Requests.device(good, body: String(repeating: "x", count: 4097)), TestCredentials.tokenCredential(), .payloadTooLarge, "size before parsing"),
            (Requests.device(good, body: "x"), TestCredentials.tokenCredential(), .badRequestPayload, "parse last"),
            (Requests.device(good), TestCredentials.tokenCredential(iatOffset: -7200), .expiredProviderToken, "expired token"),
            (Requests.device(good), TestCredentials.certificate("client-untrusted"), .badCertificate, "untrusted certificate"),
        ]
        for (request, credential, expected, label) in cases {
            XCTAssertEqual(Requests.decide(request, credential: credential).reason, expected, label)
        }
    }

    func testMalformedPayloadReasonIsConfigurable() {
        var connection = TokenConnectionState()
        let context = DecisionContext(environment: .development, credential: TestCredentials.tokenCredential(),
                                      now: TestCredentials.now, malformedPayloadReason: .payloadEmpty)
        let verdict = RequestDecider.decide(Requests.device([("apns-topic", app)], body: "[]"), context: context, connection: &connection)
        XCTAssertEqual(verdict.reason, .payloadEmpty)
    }

    func testConnectionIsBoundEvenWhenALaterRuleRejects() {
        var connection = TokenConnectionState()
        let context = DecisionContext(environment: .development, credential: TestCredentials.tokenCredential(), now: TestCredentials.now)
        let verdict = RequestDecider.decide(Requests.device([("apns-topic", app), ("apns-priority", "7")]), context: context, connection: &connection)
        XCTAssertEqual(verdict.reason, .badPriority)
        XCTAssertEqual(connection.teamID, "TESTTEAM01")
        XCTAssertFalse(connection.hasSucceeded, "the server records success, not the decider")

        var other = context
        other.credential = TestCredentials.tokenCredential(key: "OTHERKEY01", team: "OTHERTEAM1")
        XCTAssertEqual(RequestDecider.decide(Requests.device([("apns-topic", app)]), context: other, connection: &connection).reason, .forbidden)
    }

    func testCertificateConnectionsIgnoreTokenState() {
        var connection = TokenConnectionState()
        let context = DecisionContext(environment: .production, credential: TestCredentials.certificate("client-app"), now: TestCredentials.now)
        XCTAssertNotNil(RequestDecider.decide(Requests.device([("apns-topic", app), ("authorization", "bearer junk")]), context: context, connection: &connection).accepted)
        XCTAssertNil(connection.teamID)
    }

    func testBroadcast() throws {
        let headers = [HeaderField("apns-channel-id", "dGVzdA=="), HeaderField("apns-push-type", "LiveActivity"),
                       HeaderField("apns-expiration", "0"), HeaderField("apns-request-id", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")]
        let request = APNsRequest(method: "POST", path: "/4/broadcasts/apps/\(app)", headers: headers,
                                  body: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8))
        let push = try XCTUnwrap(Requests.decide(request).accepted)
        XCTAssertEqual(push.route, .broadcast(bundleID: app))
        XCTAssertEqual(push.topic, app)
        XCTAssertEqual(push.pushType, .liveactivity)
        XCTAssertEqual(push.channelID, "dGVzdA==")
        XCTAssertEqual(push.requestID, "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
        XCTAssertEqual(push.expiration, 0)
        XCTAssertEqual(push.priority, .immediate, "missing priority defaults to 10 (lenient)")
        XCTAssertNil(push.deviceToken)

        var withoutExpiration = request
        withoutExpiration.headers.removeAll { $0.name == "apns-expiration" }
        XCTAssertEqual(Requests.decide(withoutExpiration).reason, .badExpirationDate)
        var priority1 = request
        priority1.headers.append(HeaderField("apns-priority", "1"))
        XCTAssertEqual(Requests.decide(priority1).accepted?.priority, .prioritizePower)
    }

    func testChannelManagement() throws {
        let create = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels",
                                 body: Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8))
        let created = try XCTUnwrap(Requests.decide(create).accepted)
        XCTAssertEqual(created.messageStoragePolicy, 1)
        XCTAssertEqual(created.route.channelOperation(method: "POST"), .create)
        XCTAssertEqual(created.channelOperation, .create)
        XCTAssertEqual(Verdict.accepted(created).status, 201)

        let noPolicy = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels", body: Array(#"{"push-type":"LiveActivity"}"#.utf8))
        XCTAssertEqual(Requests.decide(noPolicy).reason, .badRequestParams, "a channel needs its storage policy")
        let noPolicyBadType = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels", body: Array(#"{"push-type":"alert"}"#.utf8))
        XCTAssertEqual(Requests.decide(noPolicyBadType).reason, .invalidPushType, "the push type is checked first")

        let cases: [(String, APNsReason)] = [
            (#"{"message-storage-policy":"1"}"#, .badRequestParams),
            (#"{"message-storage-policy":1.0}"#, .badRequestParams),
            (#"{"message-storage-policy":-1}"#, .badRequestParams),
            (#"{"push-type":5}"#, .invalidPushType),
            (#"{"extra":1}"#, .badRequestParams),
            (#"[]"#, .badRequestPayload),
        ]
        for (body, reason) in cases {
            let request = APNsRequest(method: "POST", path: "/1/apps/\(app)/channels", body: Array(body.utf8))
            XCTAssertEqual(Requests.decide(request).reason, reason, body)
        }

        let read = APNsRequest(method: "GET", path: "/1/apps/\(app)/channels", headers: [HeaderField("apns-channel-id", "dGVzdA==")])
        XCTAssertEqual(try XCTUnwrap(Requests.decide(read).accepted).channelID, "dGVzdA==")
        XCTAssertEqual(Requests.decide(read).status, 200)
        var delete = read
        delete.method = "DELETE"
        XCTAssertEqual(Requests.decide(delete).accepted?.channelOperation, .delete)
        XCTAssertEqual(Requests.decide(delete).status, 204)
        let list = APNsRequest(method: "GET", path: "/1/apps/\(app)/all-channels")
        XCTAssertEqual(try XCTUnwrap(Requests.decide(list).accepted).route, .allChannels(bundleID: app))
        XCTAssertEqual(Requests.decide(list, credential: TestCredentials.certificate("client-single-topic")).reason, .topicMismatch)
    }
}
