import APNsModel
import MockAPNs
import MockTestSupport
import XCTest

/// The pipeline driven directly, without a socket (as swift-nio's `EmbeddedChannel` tests drive a handler): each
/// test hands it requests on made-up connections and reads its answers and records. Faults, the per-connection
/// stream limit and channels are decided here, so they are tested here, one request at a time.
final class PipelineTests: LeakCheckedTestCase {
    private let token = TestTokens.token64
    private var pipeline: Pipeline!
    private var jwt = ""

    override func setUpWithError() throws {
        var keys = TrustedKeyStore()
        try keys.add(keysJSONAt: BundledCredentials(directory: RepoPaths.certs).keysPath)
        pipeline = Pipeline(
            configuration: MockConfiguration(),
            tokens: ProviderTokenAuthenticator(keys: keys, trustAnySignature: false),
            certificates: CertificateAuthenticator(trustStore: nil),
            recorder: try Recorder(memoryLimit: 100))
        jwt = try TestTokens.jwt()
    }

    override func tearDown() {
        pipeline.recorder.shutdown()
    }

    private func push(path: String? = nil, method: String = "POST", _ extra: [(String, String)] = [],
                      topic: String? = "com.example.app", body: String = #"{"aps":{"alert":"hi"}}"#) -> APNsRequest {
        var headers = [HeaderField(name: "authorization", value: "bearer \(jwt)")]
        if let topic { headers.append(HeaderField(name: "apns-topic", value: topic)) }
        headers.append(HeaderField(name: "apns-push-type", value: "alert"))
        headers += extra.map { HeaderField(name: $0.0, value: $0.1) }
        return APNsRequest(method: method, path: path ?? "/3/device/\(token)", headers: headers, body: Array(body.utf8))
    }

    private func send(_ request: APNsRequest, connection id: UInt64 = 1, stream: Int32 = 1) -> PipelineResponse {
        pipeline.answerNow(request, on: PipelineConnection(id: id, remote: "127.0.0.1:1", streamID: stream))
    }

    private func header(_ response: PipelineResponse, _ name: String) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    private func reason(_ response: PipelineResponse) -> String? {
        (try? JSONValue.parse(response.body))?["reason"]?.stringValue
    }

    func testAcceptedPushIsAnsweredAndRecordedOnce() {
        let response = send(push())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.disposition, .respond)
        let id = header(response, "apns-id")
        XCTAssertNotNil(id)
        let records = pipeline.recorder.records()
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.deviceToken, token)
        XCTAssertEqual(records.first?.response.apnsID, id)
        XCTAssertEqual(records.first?.payload?["aps"]?["alert"]?.stringValue, "hi")
    }

    func testSentApnsIDIsEchoed() {
        let sent = "2A7E2E8A-3B1A-4C1E-9E9F-6A2E4B7C8D10"
        let response = send(push([("apns-id", sent)]))
        XCTAssertEqual(header(response, "apns-id"), sent)
        XCTAssertEqual(pipeline.recorder.records().last?.response.apnsID, sent)
    }

    /// Every request is decided on its own: one that differs from the accepted one before it only in a header
    /// value is judged by that value (no answer carried over from the previous request).
    /// A connection remembers how records show its last credential; a request with another `authorization` (here
    /// none, then the token again) must be recorded with its own.
    func testEachRecordShowsItsOwnRequestsCredential() {
        var anonymous = push()
        anonymous.headers.removeAll { $0.name == "authorization" }
        _ = send(push(), stream: 1)
        _ = send(anonymous, stream: 3)
        _ = send(push(), stream: 5)
        let auths = pipeline.recorder.records().map(\.auth)
        XCTAssertEqual(auths.map(\.kind), ["token", "none", "token"])
        XCTAssertNotNil(auths[0].teamID)
        XCTAssertNil(auths[1].teamID)
        XCTAssertEqual(auths[2], auths[0])
    }

    func testEachRequestOfAConnectionIsDecidedOnItsOwn() {
        XCTAssertEqual(send(push([("apns-priority", "10")])).status, 200)
        let bad = send(push([("apns-priority", "7")]), stream: 3)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(reason(bad), "BadPriority")
        let noTopic = send(push(topic: nil), stream: 5)
        XCTAssertEqual(reason(noTopic), "MissingTopic")
        let notJSON = send(push(body: "nope"), stream: 7)
        XCTAssertEqual(notJSON.status, 400)
        XCTAssertNotNil(reason(notJSON))
        XCTAssertEqual(send(push(), stream: 9).status, 200)
        XCTAssertEqual(pipeline.recorder.records().count, 5)
    }

    func testStatusFaultAnswersWithItsReasonAndIsRecorded() {
        pipeline.faults.add(FaultRule(name: "down", token: token, action: .status(503, reason: "ServiceUnavailable")))
        let response = send(push())
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(reason(response), "ServiceUnavailable")
        XCTAssertEqual(pipeline.recorder.records().last?.faults, ["down"])
        XCTAssertEqual(pipeline.recorder.records().last?.response.status, 503)
    }

    func testResetFaultWithholdsTheAnswerAndRecordsNoStatus() {
        pipeline.faults.add(FaultRule(action: .reset(errorCode: 2)))
        let response = send(push())
        XCTAssertEqual(response.disposition, .abortStream(errorCode: 2))
        XCTAssertEqual(pipeline.recorder.records().last?.response.status, 0)
        XCTAssertNil(pipeline.recorder.records().last?.response.apnsID)
    }

    func testDelayFaultIsReturnedNotSlept() {
        pipeline.faults.add(FaultRule(count: 1, action: .delay(milliseconds: 250)))
        XCTAssertEqual(send(push()).delay, .milliseconds(250))
        XCTAssertNil(send(push(), stream: 3).delay, "count 1: fires once")
    }

    func testUnregisteredDeviceGets410WithTimestamp() throws {
        try pipeline.devices.set(token, .unregistered(timestamp: 1_700_000_000_000))
        let response = send(push())
        XCTAssertEqual(response.status, 410)
        XCTAssertEqual(reason(response), "Unregistered")
        XCTAssertEqual((try? JSONValue.parse(response.body))?["timestamp"]?.integerValue, 1_700_000_000_000)
    }

    /// A token connection whose first request is rejected is held to one stream; its first success gives the full
    /// limit back; after that, rejections change nothing. Another connection is not affected.
    func testStreamLimitFollowsTheConnectionsFirstSuccess() {
        let rejected = send(push(topic: nil))
        XCTAssertEqual(rejected.status, 400)
        XCTAssertEqual(rejected.streamLimit, 1)
        XCTAssertNil(send(push(topic: nil), stream: 3).streamLimit, "already limited")
        XCTAssertEqual(send(push(), connection: 2).streamLimit, nil, "another connection starts at the full limit")
        let accepted = send(push(), stream: 5)
        XCTAssertEqual(accepted.status, 200)
        XCTAssertEqual(accepted.streamLimit, MockConfiguration().maxConcurrentStreams)
        XCTAssertNil(send(push(topic: nil), stream: 7).streamLimit, "after a success, a rejection keeps the limit")
    }

    func testChannelLifecycleAndBroadcast() throws {
        let app = "com.example.app"
        let create = send(push(path: "/1/apps/\(app)/channels", body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#))
        XCTAssertEqual(create.status, 201)
        let channel = try XCTUnwrap(header(create, "apns-channel-id"))

        let read = send(APNsRequest(method: "GET", path: "/1/apps/\(app)/channels", headers: [
            HeaderField(name: "authorization", value: "bearer \(jwt)"), HeaderField(name: "apns-channel-id", value: channel),
        ]), stream: 3)
        XCTAssertEqual(read.status, 200)
        XCTAssertEqual((try? JSONValue.parse(read.body))?["message-storage-policy"]?.integerValue, 1)

        let broadcast = APNsRequest(method: "POST", path: "/4/broadcasts/apps/\(app)", headers: [
            HeaderField(name: "authorization", value: "bearer \(jwt)"), HeaderField(name: "apns-channel-id", value: channel),
            HeaderField(name: "apns-push-type", value: "liveactivity"), HeaderField(name: "apns-expiration", value: "0"),
        ], body: Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8))
        let sent = send(broadcast, stream: 5)
        XCTAssertEqual(sent.status, 200)
        XCTAssertNotNil(header(sent, "apns-request-id"), "broadcasts answer with apns-request-id")
        XCTAssertNil(header(sent, "apns-id"))

        let delete = send(APNsRequest(method: "DELETE", path: "/1/apps/\(app)/channels", headers: [
            HeaderField(name: "authorization", value: "bearer \(jwt)"), HeaderField(name: "apns-channel-id", value: channel),
        ]), stream: 7)
        XCTAssertEqual(delete.status, 204)
        let gone = send(broadcast, stream: 9)
        XCTAssertEqual(gone.status, 400)
        XCTAssertEqual(reason(gone), "ChannelNotRegistered")
    }

    func testConnectionStateIsForgottenWhenClosed() {
        pipeline.connectionOpened(id: 7, certificateDER: nil)
        XCTAssertEqual(pipeline.openConnections, 1)
        _ = send(push(), connection: 7)
        pipeline.connectionClosed(id: 7)
        XCTAssertEqual(pipeline.openConnections, 0)
    }

    /// A connection flagged as churn gets its finding on each record, but the pipeline lints nothing: the payload's
    /// findings are computed by the record's readers (the file writer, queries), which put the connection's last.
    func testAChurnRecordCarriesItsConnectionsFindingAndTheReadersLintThePayload() throws {
        var configuration = MockConfiguration()
        configuration.newConnectionsPerSecondLimit = 1
        pipeline.recorder.shutdown()
        var keys = TrustedKeyStore()
        try keys.add(keysJSONAt: BundledCredentials(directory: RepoPaths.certs).keysPath)
        pipeline = Pipeline(configuration: configuration,
                            tokens: ProviderTokenAuthenticator(keys: keys, trustAnySignature: false),
                            certificates: CertificateAuthenticator(trustStore: nil), recorder: try Recorder(memoryLimit: 100))
        let linted = #"{"aps":{"alert":"hi","badge":"3"}}"#   // badge-not-integer
        for id: UInt64 in 1...3 {
            XCTAssertEqual(send(push(body: linted), connection: id).status, 200)
        }
        let stored = pipeline.recorder.records(after: 0, limit: 10)   // as the ring holds them
        XCTAssertEqual(stored.map { $0.connectionFinding?.id }, [nil, "new-connection-per-push", "new-connection-per-push"])
        XCTAssertEqual(stored.map(\.lint), [[], [], []], "the pipeline computed lint on the request path")
        let read = try XCTUnwrap(pipeline.recorder.record(seq: 3))
        XCTAssertEqual(read.lint.map(\.id), ["badge-not-integer", "new-connection-per-push"])
        XCTAssertEqual(pipeline.recorder.record(seq: 1)?.lint.map(\.id), ["badge-not-integer"])
        var encoder = RecordLineEncoder()   // as the store's writer encodes it
        let line = try encoder.withLine(for: stored[2], linted: true) { try JSONValue.parse(Array($0)) }
        XCTAssertEqual(line["lint"]?.arrayElements?.compactMap { $0["id"]?.stringValue }, ["badge-not-integer", "new-connection-per-push"])
        XCTAssertEqual(pipeline.recorder.statistics.newConnectionPerPush, 2)
    }

    /// The record's device token is the one the route names: a query is not part of it, and a path that names no
    /// endpoint has none.
    func testTheRecordsDeviceTokenIsTheRoutes() {
        _ = send(push(path: "/3/device/\(token)?x=1"))
        _ = send(push(path: "/3/device/\(token)", method: "GET"))
        _ = send(push(path: "/3/device/a/b"))
        XCTAssertEqual(pipeline.recorder.records().map(\.deviceToken), [token, nil, nil])
        XCTAssertEqual(pipeline.recorder.records().map(\.response.status), [200, 405, 404])
    }
}
