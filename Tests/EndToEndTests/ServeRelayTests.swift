import APNsModel
import Foundation
import PeerSupport
import TestSupport
import MockAPNs
import XCTest

/// `mockapns serve --relay` between real processes: mock A relays to mock B (the upstream, with its own device
/// registry), and `mockapns send` is the sender. The sender sees B's answers, A's record keeps both verdicts and a
/// `relay-disagreement` finding where they differ, B records exactly the pushes A relayed, and a push A rejects
/// itself never reaches B.
final class ServeRelayTests: LeakCheckedTestCase {
    private let good = String(repeating: "ab", count: 32)
    /// Unregistered in B's registry only: A answers 200 for it, B 410.
    private let gone = String(repeating: "cd", count: 32)
    /// Unregistered in A's own registry: A answers 410 itself and relays nothing.
    private let refusedByMock = String(repeating: "ef", count: 32)
    /// The repository's bundled credentials.
    private let certs = URL(fileURLWithPath: RepoPaths.certs)

    /// A scratch directory with a payload file, removed when the test ends.
    private func scratch() throws -> URL {
        let directory = URL(fileURLWithPath: try makeTestDirectory("mockapns-relay"))
        try Data(#"{"aps":{"alert":"relayed"}}"#.utf8).write(to: directory.appendingPathComponent("push.json"))
        return directory
    }

    /// `serve` on a free port without a control plane, quietly (the record file and the ready file are added).
    private let quietServe = ["--port", "0", "--no-control", "--quiet"]

    /// Starts the upstream (mock B) recording to `record`, with `gone` unregistered in its own registry.
    private func serveUpstream(in directory: URL, record: String) async throws -> ServedMock {
        let devices = directory.appendingPathComponent("devices.json").path
        try Data(#"[{"token": "\#(gone)", "state": "unregistered", "timestamp": 1700000000000}]"#.utf8)
            .write(to: URL(fileURLWithPath: devices))
        return try await ServedMock.start(quietServe + ["--devices", devices], readyFile: record + ".ready.json", record: record)
    }

    /// The relay flags pointing at `upstream` with the bundled test key and CA.
    private func relayFlags(_ upstream: String, timeout: String = "10") -> [String] {
        ["--relay", upstream, "--relay-key-file", "TESTTEAM01:TESTKEY001:" + certs.appendingPathComponent("AuthKey_TESTKEY001.p8").path,
         "--relay-ca", certs.appendingPathComponent("ca.pem").path, "--relay-timeout", timeout]
    }

    /// `mockapns send` of one push to `token` at `url`; its JSON summary.
    private func send(_ token: String, to url: String, in directory: URL) async throws -> JSONValue {
        let result = try await InspectCLI.run(["send", directory.appendingPathComponent("push.json").path, "--token", token,
                                               "--topic", "com.example.app", "--url", url, "--json"], timeout: .seconds(120))
        return try result.json()
    }

    /// Stops `process` (SIGINT: the record file is flushed) and reads `record`'s lines.
    private func stopAndRead(_ served: ServedMock, _ record: String) async throws -> [RecordedRequest] {
        served.stop()
        _ = try await served.process.waitForExit(timeout: .seconds(30))
        let text = try String(contentsOfFile: record, encoding: .utf8)
        return try text.split(separator: "\n").map { try RecordedRequest(jsonLine: Array($0.utf8)) }
    }

    func testSenderGetsTheUpstreamsAnswerAndTheRecordKeepsBothVerdicts() async throws {
        let directory = try scratch()
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await serveUpstream(in: directory, record: upstreamRecord)
        defer { upstream.stop() }
        let relayDevices = directory.appendingPathComponent("relay-devices.json").path
        try Data(#"[{"token": "\#(refusedByMock)", "state": "unregistered", "timestamp": 1600000000000}]"#.utf8)
            .write(to: URL(fileURLWithPath: relayDevices))
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(upstream.apnsURL) + ["--devices", relayDevices],
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }

        let accepted = try await send(good, to: relay.apnsURL, in: directory)
        XCTAssertEqual(accepted["accepted"]?.integerValue, 1, accepted.jsonText())
        let unregistered = try await send(gone, to: relay.apnsURL, in: directory)
        XCTAssertEqual(unregistered["rejected"]?["410 Unregistered"]?.integerValue, 1, "the sender gets B's 410: \(unregistered.jsonText())")
        let refused = try await send(refusedByMock, to: relay.apnsURL, in: directory)
        XCTAssertEqual(refused["rejected"]?["410 Unregistered"]?.integerValue, 1, "A's own rejection: \(refused.jsonText())")

        let relayed = try await stopAndRead(relay, relayRecord)
        XCTAssertEqual(relayed.map(\.deviceToken), [good, gone, refusedByMock])
        XCTAssertEqual(relayed[0].response.status, 200)
        XCTAssertEqual(relayed[0].relay?.status, 200)
        XCTAssertNil(relayed[0].relay?.error)
        XCTAssertFalse(relayed[0].lint.contains { $0.id == "relay-disagreement" })

        XCTAssertEqual(relayed[1].response.status, 200, "the mock's own verdict is kept")
        XCTAssertEqual(relayed[1].relay?.status, 410)
        XCTAssertEqual(relayed[1].relay?.reason, "Unregistered")
        XCTAssertEqual(relayed[1].relay?.timestamp, 1_700_000_000_000)
        let finding = try XCTUnwrap(relayed[1].lint.first { $0.id == "relay-disagreement" }, "\(relayed[1].lint)")
        XCTAssertTrue(finding.message.contains("200") && finding.message.contains("410 Unregistered"), finding.message)

        XCTAssertEqual(relayed[2].response.status, 410)
        XCTAssertEqual(relayed[2].relay?.status, 0)
        XCTAssertTrue(relayed[2].relay?.skipped?.contains("not relayed") == true, "\(String(describing: relayed[2].relay))")

        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.map(\.deviceToken), [good, gone], "B saw exactly the relayed pushes")
        XCTAssertEqual(upstreamRecords.map(\.response.status), [200, 410])
        XCTAssertEqual(upstreamRecords.map(\.auth.keyID), ["TESTKEY001", "TESTKEY001"], "re-signed with the relay's key")
        XCTAssertEqual(upstreamRecords[0].header("apns-topic"), "com.example.app")
        XCTAssertEqual(upstreamRecords[0].body, relayed[0].body)
    }

    /// HTTP/1.1 and HTTP/2 take the pipeline's one answer path: a push over either is relayed, the sender gets the
    /// upstream's answer, and its record carries the relay verdict.
    func testPushesOverHTTP1AreRelayedLikeHTTP2() async throws {
        let directory = try scratch()
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await serveUpstream(in: directory, record: upstreamRecord)
        defer { upstream.stop() }
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(upstream.apnsURL) + ["--http1-port", "0"],
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }
        let http1URL = try XCTUnwrap(relay.http1URL, "no http1_url in the ready file")

        let overHTTP2 = try await send(good, to: relay.apnsURL, in: directory)
        XCTAssertEqual(overHTTP2["accepted"]?.integerValue, 1, overHTTP2.jsonText())
        let headers = ["authorization: bearer " + (try TestTokens.jwt()), "apns-topic: com.example.app", "apns-push-type: alert"]
        let overHTTP1 = try CurlRequest.send("POST", http1URL + "/3/device/" + gone, headers: headers,
                                             body: #"{"aps":{"alert":"relayed"}}"#)
        XCTAssertEqual(overHTTP1.status, 410, "the HTTP/1.1 sender gets the upstream's answer: \(overHTTP1.body)")
        XCTAssertEqual(overHTTP1.body, #"{"reason":"Unregistered","timestamp":1700000000000}"#)

        let relayed = try await stopAndRead(relay, relayRecord)
        XCTAssertEqual(relayed.map(\.deviceToken), [good, gone])
        XCTAssertEqual(relayed.map { $0.relay?.status }, [200, 410], "both records carry the relay's verdict")
        XCTAssertEqual(relayed[1].response.status, 200, "the mock's own verdict is kept beside the upstream's")
        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.map(\.deviceToken), [good, gone], "the upstream saw the HTTP/2 and the HTTP/1.1 push")
    }

    func testUnreachableUpstreamAnswers503WithTheCauseRecorded() async throws {
        let directory = try scratch()
        // A port a server just left: nothing listens there.
        let goneRecord = directory.appendingPathComponent("gone.jsonl").path
        let gone = try await ServedMock.start(quietServe, readyFile: goneRecord + ".ready.json", record: goneRecord)
        gone.stop()
        _ = try await gone.process.waitForExit(timeout: .seconds(30))
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(gone.apnsURL, timeout: "2"),
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }

        let summary = try await send(good, to: relay.apnsURL, in: directory)
        XCTAssertEqual(summary["rejected"]?["503 ServiceUnavailable"]?.integerValue, 1, summary.jsonText())
        let records = try await stopAndRead(relay, relayRecord)
        XCTAssertFalse(records.isEmpty)
        for record in records {
            XCTAssertEqual(record.response.status, 200, "the mock's own verdict")
            XCTAssertEqual(record.relay?.status, 503)
            XCTAssertTrue(record.relay?.error?.contains("127.0.0.1") == true, "the cause names the upstream: \(String(describing: record.relay))")
            XCTAssertFalse(record.lint.contains { $0.id == "relay-disagreement" }, "an upstream error is not a disagreement")
        }
    }

    /// Without `--relay-key-file` a token-authenticated push is forwarded with the sender's own `authorization`,
    /// unchanged: the upstream checks the sender's key. The relay's record keeps the token without its signature,
    /// unless `--record-credentials`.
    func testTheSendersOwnTokenIsForwardedAndRecordedWithoutItsSignature() async throws {
        let directory = try scratch()
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await ServedMock.start(quietServe, readyFile: upstreamRecord + ".ready.json", record: upstreamRecord)
        defer { upstream.stop() }
        let ca = certs.appendingPathComponent("ca.pem").path
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + ["--relay", upstream.apnsURL, "--relay-ca", ca],
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }
        let keepingRecord = directory.appendingPathComponent("keeping.jsonl").path
        let keeping = try await ServedMock.start(quietServe + ["--relay", upstream.apnsURL, "--relay-ca", ca, "--record-credentials"],
                                                 readyFile: keepingRecord + ".ready.json", record: keepingRecord)
        defer { keeping.stop() }

        let otherKey = "OTHERTEAM1:OTHERKEY01:" + certs.appendingPathComponent("AuthKey_OTHERKEY01.p8").path
        // Two runs of the sender through one relay (two tokens minted seconds apart): APNs refuses a token change on
        // one connection within 20 minutes (429 TooManyProviderTokenUpdates), so each token gets its own connection.
        for url in [relay.apnsURL, relay.apnsURL, keeping.apnsURL] {
            let result = try await InspectCLI.run(["send", directory.appendingPathComponent("push.json").path, "--token", good,
                                                   "--topic", "com.example.app", "--url", url, "--key-file", otherKey, "--json"],
                                                  timeout: .seconds(120))
            XCTAssertEqual(try result.json()["accepted"]?.integerValue, 1, result.stdout + result.stderr)
        }
        // Stopped newest first: a process started after another may hold that one's output pipes until it exits.
        let keepingRecords = try await stopAndRead(keeping, keepingRecord)
        let relayRecords = try await stopAndRead(relay, relayRecord)
        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.map(\.auth.keyID), ["OTHERKEY01", "OTHERKEY01", "OTHERKEY01"], "the sender's key, not a relay key")
        XCTAssertEqual(upstreamRecords.map(\.auth.teamID), ["OTHERTEAM1", "OTHERTEAM1", "OTHERTEAM1"])
        XCTAssertEqual(upstreamRecords.map(\.response.status), [200, 200, 200])
        XCTAssertEqual(Set(upstreamRecords.map(\.connectionID)).count, 3, "a connection per token")
        let forwarded = try XCTUnwrap(upstreamRecords.first?.header("authorization"))
        XCTAssertEqual(forwarded.split(separator: ".", omittingEmptySubsequences: false).count, 3)

        let cut = try XCTUnwrap(relayRecords.first?.header("authorization"))
        XCTAssertTrue(cut.hasSuffix("."), "the signature is cut off: \(cut)")
        XCTAssertTrue(forwarded.hasPrefix(cut), "header and claims kept as sent: \(cut) vs \(forwarded)")
        XCTAssertGreaterThan(forwarded.count, cut.count + 20)
        let whole = try XCTUnwrap(keepingRecords.first?.header("authorization"))
        XCTAssertEqual(whole, upstreamRecords.last?.header("authorization"), "--record-credentials keeps the token whole")
    }

    /// A certificate-authenticated sender cannot be forwarded as itself: without `--relay-cert` it gets 403 and the
    /// record says why (nothing reaches the upstream); with it, the push goes up as the mock's certificate.
    func testCertificateSendersNeedTheRelaysOwnCertificate() async throws {
        let directory = try scratch()
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await ServedMock.start(quietServe, readyFile: upstreamRecord + ".ready.json", record: upstreamRecord)
        defer { upstream.stop() }
        let ca = certs.appendingPathComponent("ca.pem").path
        let bareRecord = directory.appendingPathComponent("bare.jsonl").path
        let bare = try await ServedMock.start(quietServe + ["--relay", upstream.apnsURL, "--relay-ca", ca],
                                              readyFile: bareRecord + ".ready.json", record: bareRecord)
        defer { bare.stop() }

        func sendAsCertificate(to url: String) async throws -> JSONValue {
            let result = try await InspectCLI.run(["send", directory.appendingPathComponent("push.json").path, "--token", good,
                                                   "--topic", "com.example.app", "--url", url,
                                                   "--cert", certs.appendingPathComponent("client-app.pem").path,
                                                   "--cert-key", certs.appendingPathComponent("client-app-key.pem").path, "--json"],
                                                  timeout: .seconds(120))
            return try result.json()
        }
        let refused = try await sendAsCertificate(to: bare.apnsURL)
        XCTAssertEqual(refused["rejected"]?["403 MissingProviderToken"]?.integerValue, 1, refused.jsonText())
        let bareRecords = try await stopAndRead(bare, bareRecord)
        XCTAssertEqual(bareRecords.first?.auth.kind, "certificate")
        XCTAssertTrue(bareRecords.first?.relay?.error?.contains("--relay-cert") == true, "\(String(describing: bareRecords.first?.relay))")

        // Started after the first relay has stopped (a process started after another may hold its output pipes).
        let certRecord = directory.appendingPathComponent("cert.jsonl").path
        let withCert = try await ServedMock.start(quietServe + [
            "--relay", upstream.apnsURL, "--relay-ca", ca, "--relay-cert", certs.appendingPathComponent("client-dev-only.pem").path,
            "--relay-cert-key", certs.appendingPathComponent("client-dev-only-key.pem").path],
            readyFile: certRecord + ".ready.json", record: certRecord)
        defer { withCert.stop() }
        let relayed = try await sendAsCertificate(to: withCert.apnsURL)
        XCTAssertEqual(relayed["accepted"]?.integerValue, 1, relayed.jsonText())
        _ = try await stopAndRead(withCert, certRecord)
        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.count, 1, "only the push with a relay certificate reached the upstream")
        XCTAssertEqual(upstreamRecords.first?.auth.kind, "certificate")
        XCTAssertEqual(upstreamRecords.first?.auth.topics.contains("com.example.app"), true)
    }

    /// An upstream that never answers (fault `stall`): the sender gets 503 within the relay's timeout, and the
    /// record keeps the cause.
    func testAStallingUpstreamAnswers503WithinTheTimeout() async throws {
        let directory = try scratch()
        let faults = directory.appendingPathComponent("faults.json").path
        try Data(#"{"rules": [{"name": "hang", "action": {"type": "stall"}}]}"#.utf8).write(to: URL(fileURLWithPath: faults))
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await ServedMock.start(quietServe + ["--faults", faults],
                                                  readyFile: upstreamRecord + ".ready.json", record: upstreamRecord)
        defer { upstream.stop() }
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(upstream.apnsURL, timeout: "1"),
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }
        let summary = try await send(good, to: relay.apnsURL, in: directory)
        XCTAssertEqual(summary["rejected"]?["503 ServiceUnavailable"]?.integerValue, 1, summary.jsonText())
        let records = try await stopAndRead(relay, relayRecord)
        XCTAssertEqual(records.first?.relay?.status, 503)
        XCTAssertNotNil(records.first?.relay?.error, "the cause is recorded")
    }

    /// 10 000 pushes through the relay: every one answered, and exactly one upstream request each (the upstream's
    /// record holds each push number once).
    func testTenThousandPushesMakeExactlyOneUpstreamRequestEach() async throws {
        let directory = try scratch()
        try Data(#"{"aps":{"alert":"push {{n}}"}}"#.utf8).write(to: directory.appendingPathComponent("numbered.json"))
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await ServedMock.start(quietServe, readyFile: upstreamRecord + ".ready.json", record: upstreamRecord)
        defer { upstream.stop() }
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(upstream.apnsURL),
                                               readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }
        let count = 10_000
        let result = try await InspectCLI.run(["send", directory.appendingPathComponent("numbered.json").path, "--token", good,
                                               "--topic", "com.example.app", "--url", relay.apnsURL, "--count", String(count),
                                               "--concurrency", "100", "--payload-template", "--json"], timeout: .seconds(600))
        XCTAssertEqual(try result.json()["accepted"]?.integerValue, Int64(count), result.stdout + result.stderr)
        let relayed = try await stopAndRead(relay, relayRecord)
        XCTAssertEqual(relayed.count, count)
        XCTAssertTrue(relayed.allSatisfy { $0.relay?.status == 200 })
        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.count, count, "one upstream request per push")
        let numbers = Set(upstreamRecords.map { String(decoding: $0.body, as: UTF8.self) })
        XCTAssertEqual(numbers.count, count, "each push reached the upstream once")
    }

    /// `--relay-match` relays only the matching pushes (the others are answered by the mock, the record says why);
    /// `--relay-rejected` relays a push the mock rejects, the sender gets the upstream's answer and the record both.
    func testRelayMatchAndRelayRejected() async throws {
        let directory = try scratch()
        let upstreamRecord = directory.appendingPathComponent("upstream.jsonl").path
        let upstream = try await ServedMock.start(quietServe, readyFile: upstreamRecord + ".ready.json", record: upstreamRecord)
        defer { upstream.stop() }
        let relayDevices = directory.appendingPathComponent("relay-devices.json").path
        try Data(#"[{"token": "\#(refusedByMock)", "state": "unregistered", "timestamp": 1600000000000}]"#.utf8)
            .write(to: URL(fileURLWithPath: relayDevices))
        let relayRecord = directory.appendingPathComponent("relay.jsonl").path
        let relay = try await ServedMock.start(quietServe + relayFlags(upstream.apnsURL) + [
            "--devices", relayDevices, "--relay-match=-token:\(gone.prefix(8))", "--relay-rejected"],
            readyFile: relayRecord + ".ready.json", record: relayRecord)
        defer { relay.stop() }

        let matching = try await send(good, to: relay.apnsURL, in: directory)
        XCTAssertEqual(matching["accepted"]?.integerValue, 1, matching.jsonText())
        let notMatching = try await send(gone, to: relay.apnsURL, in: directory)
        XCTAssertEqual(notMatching["accepted"]?.integerValue, 1, "the mock's own 200: \(notMatching.jsonText())")
        let rejectedByMock = try await send(refusedByMock, to: relay.apnsURL, in: directory)
        XCTAssertEqual(rejectedByMock["accepted"]?.integerValue, 1, "the upstream's 200 for a push the mock rejects: \(rejectedByMock.jsonText())")

        let relayed = try await stopAndRead(relay, relayRecord)
        XCTAssertEqual(relayed.map(\.deviceToken), [good, gone, refusedByMock])
        XCTAssertEqual(relayed[0].relay?.status, 200)
        XCTAssertEqual(relayed[1].relay?.skipped, "not relayed: it does not match --relay-match")
        XCTAssertEqual(relayed[2].response.status, 410, "the mock's own verdict is kept")
        XCTAssertEqual(relayed[2].relay?.status, 200)
        XCTAssertTrue(relayed[2].lint.contains { $0.id == "relay-disagreement" })
        XCTAssertTrue(try SearchQuery(parsing: "has:disagreement").matches(relayed[2]))
        let upstreamRecords = try await stopAndRead(upstream, upstreamRecord)
        XCTAssertEqual(upstreamRecords.map(\.deviceToken), [good, refusedByMock], "only what matched went upstream")

        let orphan = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--relay-rejected"])
        XCTAssertEqual(orphan.status, 2, orphan.stderr)
        XCTAssertTrue(orphan.stderr.contains("go with --relay URL"), orphan.stderr)
    }
}
