import APNsModel
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The record's `relay` field (`serve --relay`): written only when set, so lines without it read as before, and read
/// back as written; and the disagreement finding the pipeline adds when the two verdicts differ.
final class RelayRecordTests: LeakCheckedTestCase {
    private func record(relay: RelayVerdict?) -> RecordedRequest {
        var record = RecordedRequest(
            seq: 7, receivedAtMillis: 1_795_000_000_007, connectionID: 3, streamID: 1, remote: "127.0.0.1:5000",
            method: "POST", path: "/3/device/abcd", deviceToken: "abcd", headers: [HeaderField(name: "apns-topic", value: "t")],
            body: [], payload: nil, payloadBytes: 0, auth: .init(kind: "token"),
            response: .init(status: 200, apnsID: "id-1"), faults: [], lint: [], durationMicros: 12)
        record.relay = relay
        return record
    }

    func testARecordWithoutARelayHasNoRelayFieldAndReadsBackWithout() throws {
        let line = record(relay: nil).jsonLine()
        XCTAssertFalse(String(decoding: line, as: UTF8.self).contains("\"relay\""))
        XCTAssertNil(try RecordedRequest(jsonLine: line).relay)
    }

    func testBothVerdictsRoundTrip() throws {
        let upstream = RelayVerdict(status: 410, reason: "Unregistered", apnsID: "id-1", apnsUniqueID: "u-1",
                                    timestamp: 1_700_000_000_000, durationMicros: 1_234)
        let line = record(relay: upstream).jsonLine()
        let text = String(decoding: line, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix(",\"duration_us\":12,\"relay\":{\"status\":410,\"reason\":\"Unregistered\",\"apns_id\":\"id-1\""
                                     + ",\"apns_unique_id\":\"u-1\",\"timestamp\":1700000000000,\"duration_us\":1234,\"error\":null"
                                     + ",\"skipped\":null}}\n"), text)
        let read = try RecordedRequest(jsonLine: line)
        XCTAssertEqual(read.relay, upstream)
        XCTAssertEqual(read.response.status, 200, "the mock's own verdict stays in response")
        let skipped = RelayVerdict.notRelayed("not relayed: the mock rejected it (400 BadDeviceToken)")
        XCTAssertEqual(try RecordedRequest(jsonLine: record(relay: skipped).jsonLine()).relay, skipped)
    }

    func testADifferentStatusOrReasonIsADisagreementButAnUpstreamErrorIsNot() throws {
        let mock = RecordedRequest.Response(status: 200)
        let gone = try XCTUnwrap(RelayVerdict.disagreement(mock: mock, upstream: RelayVerdict(status: 410, reason: "Unregistered")))
        XCTAssertEqual(gone.id, "relay-disagreement")
        XCTAssertTrue(gone.message.contains("answered 200 but the upstream answered 410 Unregistered"), gone.message)
        XCTAssertNotNil(RelayVerdict.disagreement(mock: .init(status: 400, reason: "BadDeviceToken"),
                                              upstream: RelayVerdict(status: 400, reason: "BadTopic")))
        XCTAssertNil(RelayVerdict.disagreement(mock: mock, upstream: RelayVerdict(status: 200)))
        XCTAssertNil(RelayVerdict.disagreement(mock: mock, upstream: RelayVerdict(status: 503, reason: "ServiceUnavailable", error: "refused")))
        XCTAssertNil(RelayVerdict.disagreement(mock: mock, upstream: .notRelayed("not relayed")))
    }
}
