import APNsModel
import MockAPNs
import MockAPNsHTTP1
import XCTest
import TestSupport

/// The HTTP/1.1 APNs endpoint answers what the pipeline decides and records the same request.
final class HTTP1EndpointTests: LeakCheckedTestCase {
    private func withEndpoint(_ configure: (inout MockConfiguration) -> Void = { _ in },
                              _ body: (Mock, HTTPTestClient) async throws -> Void) async throws {
        let mock = try TestMock.anySignature(configure)
        addTeardownBlock { mock.shutdown() }
        let endpoint = try APNsHTTP1Listener(mock: mock)
        let port = try await endpoint.start()
        do {
            try await body(mock, HTTPTestClient(base: "http://127.0.0.1:\(port)"))
        } catch {
            await endpoint.stop()
            throw error
        }
        await endpoint.stop()
    }

    /// One provider token for the whole test, reused on the keep-alive connection as a sender does.
    private let bearer = "bearer " + TokenFixture.bearer()

    func testAPushGetsThePipelinesAnswerAndIsRecorded() async throws {
        try await withEndpoint { mock, client in
            let token = String(repeating: "ab", count: 32)
            let answer = try await client.send(
                "POST", "/3/device/\(token)", body: #"{"aps":{"alert":"hello"}}"#,
                headers: ["apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": bearer,
                          "apns-id": "5e8f1a2b-0000-4000-8000-00000000abcd"]
            )
            let record = try XCTUnwrap(mock.recorder.records(matching: RecordFilter()).last)
            XCTAssertEqual(answer.status, record.response.status)
            XCTAssertEqual(answer.headers["apns-id"], record.response.apnsID)
            if let reason = record.response.reason {
                XCTAssertEqual(try answer.json()["reason"]?.stringValue, reason)
            } else {
                XCTAssertTrue(answer.body.isEmpty)
            }
            XCTAssertEqual(record.method, "POST")
            XCTAssertEqual(record.path, "/3/device/\(token)")
            XCTAssertEqual(record.deviceToken, token)
            XCTAssertEqual(record.streamID, 0)
            XCTAssertGreaterThanOrEqual(record.connectionID, Mock.firstMintedConnectionID, "an id the mock minted")
            XCTAssertEqual(record.header("apns-topic"), "com.example.app")
            XCTAssertEqual(record.payload?.value(at: ["aps", "alert"])?.stringValue, "hello")
            XCTAssertTrue(record.remote.hasPrefix("127.0.0.1:"), record.remote)
        }
    }

    /// Under `--record-sync` the HTTP/1.1 answer comes through the pipeline's one answer path once the record's line
    /// is in the file, as over HTTP/2: a reader finds the line as soon as the answer arrives.
    func testUnderRecordSyncTheAnswerComesOnceTheRecordIsWritten() async throws {
        let directory = try makeTestDirectory("http1-record-sync")
        let file = directory + "/record.jsonl"
        try await withEndpoint({ $0.recordPath = file; $0.recordSync = true }) { _, client in
            for index in 1...3 {
                let answer = try await client.send(
                    "POST", "/3/device/" + String(repeating: "cd", count: 32), body: #"{"aps":{"alert":"sync \#(index)"}}"#,
                    headers: ["apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": bearer])
                XCTAssertEqual(answer.status, 200, answer.text)
                let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
                XCTAssertEqual(lines.count, index, "the record of push \(index) is in the file when its answer arrives")
            }
        }
    }

    func testAnyOtherPathGoesThroughThePipelineToo() async throws {
        try await withEndpoint { mock, client in
            let answer = try await client.send("GET", "/not/apns")
            let record = try XCTUnwrap(mock.recorder.records(matching: RecordFilter()).last)
            XCTAssertEqual(record.path, "/not/apns")
            XCTAssertEqual(record.method, "GET")
            XCTAssertNotEqual(answer.status, 200)
            XCTAssertEqual(answer.status, record.response.status)
            XCTAssertEqual(try answer.json()["reason"]?.stringValue, record.response.reason)
        }
    }

    func testADropFaultClosesTheConnectionWithoutAnAnswer() async throws {
        try await withEndpoint { mock, client in
            mock.faults.add(try FaultRule(json: JSONValue.parse(Array(#"{"name":"gone","action":{"type":"drop"}}"#.utf8))))
            do {
                let answer = try await client.send("POST", "/3/device/\(String(repeating: "cd", count: 32))", body: "{}",
                                                   headers: ["apns-topic": "com.example.app", "authorization": bearer])
                XCTFail("got an answer despite the drop fault: \(answer.status) \(answer.text)")
            } catch {}
            let record = try XCTUnwrap(mock.recorder.records(matching: RecordFilter()).last)
            XCTAssertEqual(record.faults, ["gone"])
        }
    }

    func testAGoAwayFaultClosesTheConnectionWithoutAnAnswer() async throws {
        try await withEndpoint { mock, client in
            let rule = #"{"name":"bye","action":{"type":"goaway","reason":"Shutdown","error_code":0}}"#
            mock.faults.add(try FaultRule(json: JSONValue.parse(Array(rule.utf8))))
            do {
                let answer = try await client.send("POST", "/3/device/\(String(repeating: "cd", count: 32))", body: #"{"aps":{"alert":"x"}}"#,
                                                   headers: ["apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": bearer])
                XCTFail("got an answer despite the goaway fault: \(answer.status) \(answer.text)")
            } catch {}
            let record = try XCTUnwrap(mock.recorder.records(matching: RecordFilter()).last)
            XCTAssertEqual(record.faults, ["bye"])
            XCTAssertEqual(record.response.status, 0)
        }
    }

    func testADelayFaultIsWaitedOutThenAnswered() async throws {
        try await withEndpoint { mock, client in
            let rule = #"{"name":"slow","action":{"type":"delay","ms":200}}"#
            mock.faults.add(try FaultRule(json: JSONValue.parse(Array(rule.utf8))))
            let answer = try await client.send("POST", "/3/device/\(String(repeating: "cd", count: 32))", body: #"{"aps":{"alert":"x"}}"#,
                                               headers: ["apns-topic": "com.example.app", "apns-push-type": "alert", "authorization": bearer])
            let record = try XCTUnwrap(mock.recorder.records(matching: RecordFilter()).last)
            XCTAssertEqual(record.faults, ["slow"])
            XCTAssertEqual(answer.status, record.response.status)
        }
    }
}
