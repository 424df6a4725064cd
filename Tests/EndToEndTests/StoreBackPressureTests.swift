import Foundation
import PeerSupport
import PostgresSupport
import TestSupport
import XCTest

/// `serve --store` under more load than its database takes, against a real PostgreSQL and h2load: a full record
/// queue stops the listeners' input, never the event loops that the store's own connection runs on; a database
/// that stops answering in the middle of a batch turns answers into 500s, not silence; and several instances on one
/// database record every push.
final class StoreBackPressureTests: PostgresTestCase {
    private var directory = ""
    private let payload = #"{"aps":{"alert":{"title":"Order shipped","body":"Your parcel is on its way"}},"orderId":"42"}"#

    override func setUp() async throws {
        directory = try makeTestDirectory("store-back-pressure")
        try Data(payload.utf8).write(to: URL(fileURLWithPath: directory + "/push.json"))
    }

    /// The deadlock of a full queue: with SwiftNIO's shared loops cut to one thread (so the HTTP/2 listener, the
    /// control plane and postgres-nio share it) and a record queue of 32, h2load keeps 400 pushes in flight to
    /// distinct tokens. A loop that waited for room in the queue would wait for the store's writer, whose
    /// connection needs that very loop. Every push is answered and stored, the queue was full along the way (the
    /// intake counter), and `/healthz` answers throughout.
    func testAFullRecordQueueHoldsTheInputNotTheLoopTheStoreNeeds() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("held")
        let serve = try await ServedMock.start(
            ["--port", "0", "--control-port", "0", "--quiet", "--record-queue", "32"], readyFile: directory + "/ready.json",
            store: .init(url: cluster.url(database: database), instance: "A"),
            environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "1"])
        defer { serve.kill() }
        let control = try XCTUnwrap(serve.controlURL)
        let total = 20_000
        let h2load = try startH2load(against: serve.apnsURL, requests: total, tokens: total, name: "held")
        var probes = 0
        var failedProbes: [String] = []
        while h2load.isRunning {
            probes += 1
            do {
                let health = try CurlRequest.send("GET", control + "/healthz")
                if health.status != 200 { failedProbes.append("status \(health.status)") }
            } catch {
                failedProbes.append("\(error)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let out = h2load.wait(timeout: 1)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.contains("\(total) succeeded, 0 failed, 0 errored"), out.stdout)
        XCTAssertTrue(out.stdout.contains("status codes: \(total) 2xx"), out.stdout)
        XCTAssertEqual(failedProbes, [], "/healthz failed \(failedProbes.count) of \(probes) times while the queue was full")
        let metrics = try CurlRequest.send("GET", control + "/metrics").body
        let holds = metrics.split(separator: "\n").first { $0.hasPrefix("mockapns_intake_holds_total ") }
        let count = holds.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        XCTAssertGreaterThan(count, 0, "the record queue never filled, so nothing was tested: \(holds ?? "no series")")

        serve.stop()
        let exit = try await serve.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not exit")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records WHERE status = 200", database: database), "\(total)")
        // h2load's 4 clients each walk the URI list from its start: 4 pushes per token.
        XCTAssertEqual(try cluster.psql("SELECT count(DISTINCT token) FROM mockapns_records", database: database), "\(total / 4)")
    }

    /// The store's backend stopped (SIGSTOP) under a running instance: the watchdog (`--store-write-timeout 1`)
    /// abandons its connection, successes turn into 500s, and after SIGCONT every push answered 200 is stored, once.
    func testAStoreThatStopsAnsweringTurnsAnswersIntoFiveHundredsAndLosesNothing() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("stopped")
        let serve = try await ServedMock.start(
            ["--port", "0", "--no-control", "--quiet", "--store-write-timeout", "1"], readyFile: directory + "/ready.json",
            store: .init(url: cluster.url(database: database), instance: "A"))
        defer { serve.kill() }
        let background = try InspectFollowProcess(["send", directory + "/push.json", "--token", String(repeating: "ab", count: 32),
                                                   "--topic", "com.example.app", "--url", serve.apnsURL, "--count", "3000",
                                                   "--concurrency", "10", "--timeout", "30", "--json"])
        defer { background.stop() }
        let started = try await Poll.until {
            Int(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database)) ?? 0 >= 100
        }
        XCTAssertTrue(started, "the store never reached 100 records")
        let writer = try cluster.psql("SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' "
                                      + "AND application_name = 'mockapns records' LIMIT 1", database: database)
        let pid = try XCTUnwrap(Int32(writer), "no writer backend found: \(writer)")
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        var resumed = false
        defer { if !resumed { kill(pid, SIGCONT) } }

        var sent = 0
        var accepted = 0
        var refused = false
        for _ in 0..<60 where !refused {
            sent += 1
            let one = try await InspectCLI.run(["send", directory + "/push.json", "--token", String(format: "%064x", sent),
                                                "--topic", "com.example.app", "--url", serve.apnsURL, "--timeout", "30", "--json"]).json()
            accepted += Int(one["accepted"]?.integerValue ?? 0)
            refused = one["rejected"]?["500 InternalServerError"]?.integerValue ?? 0 > 0
            if !refused { try await Task.sleep(for: .milliseconds(250)) }
        }
        XCTAssertTrue(refused, "no push was answered 500 while the store's backend was stopped")
        XCTAssertEqual(kill(pid, SIGCONT), 0)
        resumed = true

        let finished = try await background.waitForExit(timeout: .seconds(300))
        let summary = try XCTUnwrap(finished, "the sender never finished").json()
        accepted += Int(try XCTUnwrap(summary["accepted"]?.integerValue, "\(summary)"))
        serve.stop()
        let exit = try await serve.waitForExit(timeout: .seconds(60))
        XCTAssertEqual(exit?.status, 0, "nothing was lost, so the exit status is 0: \(exit?.stderr ?? "")")
        XCTAssertTrue(exit?.stderr.contains("stopped answering in the middle of a statement") ?? false, exit?.stderr ?? "")
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM mockapns_records WHERE status = 200", database: database), "\(accepted)",
                       "every push answered 200 is stored")
        XCTAssertEqual(try cluster.psql("SELECT count(*) - count(DISTINCT seq) FROM mockapns_records", database: database), "0",
                       "each record is stored once")
        let answered = exit?.stderr.split(separator: "\n").last { $0.contains("stopped after") }
        XCTAssertEqual(answered.map(String.init),
                       "mockapns: stopped after \(try cluster.psql("SELECT count(*) FROM mockapns_records", database: database)) request(s)")
    }

    /// The scale-out run at test size: three instances on one database, h2load sending each 20 000 pushes to
    /// distinct tokens at once; every record is stored, under its instance.
    func testThreeInstancesOnOneStoreRecordEveryPush() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("scaled")
        let url = cluster.url(database: database)
        var instances: [ServedMock] = []
        defer { for instance in instances { instance.kill() } }
        for name in ["A", "B", "C"] {
            instances.append(try await ServedMock.start(["--port", "0", "--no-control", "--quiet"],
                                                        readyFile: directory + "/\(name).json", store: .init(url: url, instance: name)))
        }
        let total = LoadSize.requests(standard: 20_000, soak: 100_000)
        let senders = try zip(["A", "B", "C"], instances).map { name, instance in
            try startH2load(against: instance.apnsURL, requests: total, tokens: total, name: name)
        }
        for sender in senders {
            let out = sender.wait(timeout: 900)
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertTrue(out.stdout.contains("status codes: \(total) 2xx"), out.stdout)
        }
        for instance in instances { instance.stop() }
        for instance in instances {
            let exit = try await instance.waitForExit(timeout: .seconds(60))
            XCTAssertEqual(exit?.status, 0, exit?.stderr ?? "serve did not exit")
        }
        let counts = try cluster.psql("SELECT string_agg(instance || '=' || n, ',' ORDER BY instance) FROM "
                                      + "(SELECT instance, count(*) AS n FROM mockapns_records WHERE status = 200 GROUP BY 1) c",
                                      database: database)
        XCTAssertEqual(counts, "A=\(total),B=\(total),C=\(total)")
    }

    /// h2load with `requests` authenticated pushes spread over `tokens` device tokens (`-i`, one URI each), 4
    /// connections of 100 streams: 400 in flight.
    private func startH2load(against apnsURL: String, requests: Int, tokens: Int, name: String) throws -> RunningPeer {
        let uris = (1...tokens).map { "\(apnsURL)/3/device/\(String(format: "%064x", $0))" }.joined(separator: "\n") + "\n"
        let uriFile = directory + "/\(name).uris"
        try Data(uris.utf8).write(to: URL(fileURLWithPath: uriFile))
        return try PeerProcess.start("h2load", [
            "-n", "\(requests)", "-c", "4", "-m", "100", "-d", directory + "/push.json", "-i", uriFile,
            "-H", "authorization: bearer \(try TestTokens.jwt())", "-H", "apns-topic: com.example.app",
            "-H", "apns-push-type: alert", "-H", "apns-priority: 10",
        ])
    }
}
