import APNsModel
import MockAPNs
import MockTestSupport
import XCTest

/// A request the transport refused (431) is recorded through the same record builder as a decided one: its
/// payload is the body's JSON when the body parses, none when it does not or is empty.
final class PipelineRefusedRecordTests: LeakCheckedTestCase {
    private var pipeline: Pipeline!

    override func setUpWithError() throws {
        pipeline = Pipeline(
            configuration: MockConfiguration(),
            tokens: ProviderTokenAuthenticator(keys: TrustedKeyStore(), trustAnySignature: false),
            certificates: CertificateAuthenticator(trustStore: nil),
            recorder: try Recorder(memoryLimit: 100))
    }

    override func tearDown() {
        pipeline.recorder.shutdown()
    }

    private func refuse(body: String) throws -> RecordedRequest {
        let request = APNsRequest(method: "POST", path: "/3/device/abcd",
                                  headers: [HeaderField(name: "apns-topic", value: "com.example.app")], body: Array(body.utf8))
        pipeline.recordRefused(request, on: PipelineConnection(id: 7, remote: "127.0.0.1:1", streamID: 3), status: 431)
        return try XCTUnwrap(pipeline.recorder.records().last)
    }

    func testARefusedRequestsRecordKeepsItsBodyAndItsPayloadWhenTheBodyIsJSON() throws {
        let record = try refuse(body: #"{"aps":{"alert":"hi"}}"#)
        XCTAssertEqual(record.response.status, 431)
        XCTAssertEqual(record.payload, try JSONValue.parse(Array(#"{"aps":{"alert":"hi"}}"#.utf8)))
        XCTAssertEqual(record.payloadBytes, 22)
        XCTAssertEqual(record.deviceToken, "abcd")
        XCTAssertEqual(record.connectionID, 7)
        XCTAssertEqual(record.streamID, 3)
        XCTAssertEqual(record.auth.kind, "none")
    }

    func testARefusedRequestWhoseBodyIsNotJSONOrEmptyHasNoPayload() throws {
        XCTAssertNil(try refuse(body: "{not json").payload)
        XCTAssertEqual(try refuse(body: "{not json").body, Array("{not json".utf8))
        XCTAssertNil(try refuse(body: "").payload)
    }
}
