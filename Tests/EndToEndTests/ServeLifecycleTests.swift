import Foundation
import PeerSupport
import PostgresSupport
import TestSupport
import XCTest

/// `mockapns serve` runs its parts as one service group: whatever fails while it starts (the control port taken,
/// the store unreachable, the ready file unwritable, a relay that cannot be made) stops what had started, in
/// reverse order, and the process exits 1 with one sentence, leaving no ready file, no listener and no database
/// connection behind.
final class ServeLifecycleTests: PostgresTestCase {
    private var directory = ""

    override func setUp() async throws {
        directory = try makeTestDirectory("serve-lifecycle")
    }

    /// The control port is taken: the APNs listener, which had bound, is closed again, and the store's connections
    /// (the writer's, the shared state's) are closed before the process exits.
    func testTheControlPortTakenStopsWhatStartedAndClosesTheStore() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("control_taken")
        let taken = try LoopbackListener()
        defer { taken.close() }
        let run = try await InspectCLI.run(["serve", "--port", "0", "--control-port", "\(taken.port)", "--quiet",
                                            "--ready-file", directory + "/ready.json",
                                            "--store", cluster.url(database: database), "--instance-name", "A"],
                                           timeout: .seconds(90))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("mockapns: cannot start the control plane: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("— change --control-port (0 picks a free port) or pass --no-control"), run.stderr)
        XCTAssertFalse(run.stderr.contains("listening on"), "nothing is announced before every listener is up: \(run.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/ready.json"))
        try await assertNoMockConnections(cluster, database: database)
    }

    /// The ready file cannot be written: every listener had bound and is closed again; the store's connections close.
    func testAnUnwritableReadyFileStopsEveryListener() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("ready_unwritable")
        let run = try await InspectCLI.run(["serve", "--port", "0", "--control-port", "0", "--http1-port", "0", "--quiet",
                                            "--ready-file", directory + "/no-such-folder/ready.json",
                                            "--store", cluster.url(database: database), "--instance-name", "A"],
                                           timeout: .seconds(90))
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("mockapns: cannot write the ready file \(directory)/no-such-folder/ready.json"), run.stderr)
        let ports = Self.announcedPorts(in: run.stderr)
        XCTAssertEqual(ports.count, 3, "the APNs, control and HTTP/1.1 listeners had bound: \(run.stderr)")
        for port in ports {
            XCTAssertFalse(LoopbackListener.accepts(port: port), "port \(port) still accepts connections after serve exited")
        }
        try await assertNoMockConnections(cluster, database: database)
    }

    /// A store nothing listens on: one sentence naming it, before anything listens.
    func testAnUnreachableStoreStopsBeforeAnythingListens() async throws {
        let port = try PeerProcess.freePort()
        let run = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--ready-file", directory + "/ready.json",
                                            "--store", "postgres://mockapns@127.0.0.1:\(port)/none?sslmode=disable"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("mockapns: cannot use the store: cannot connect to PostgreSQL at"), run.stderr)
        XCTAssertTrue(run.stderr.contains("Connection refused"), run.stderr)
        XCTAssertFalse(run.stderr.contains("listening on"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/ready.json"))
    }

    /// A relay that cannot be made (its key file is missing): one sentence naming the file, before anything listens.
    func testARelayThatCannotStartStopsBeforeAnythingListens() async throws {
        let missing = directory + "/missing.p8"
        let run = try await InspectCLI.run(["serve", "--port", "0", "--no-control", "--ready-file", directory + "/ready.json",
                                            "--relay", "https://127.0.0.1:9", "--relay-key-file", "TEAM123456:KEY1234567:\(missing)"])
        XCTAssertNotEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains(missing), "the sentence names the file: \(run.stderr)")
        XCTAssertFalse(run.stderr.contains("listening on"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/ready.json"))
    }

    /// The FCM port is taken: the listeners that had bound (APNs, the control plane, Google's port) close again, the
    /// sentence names the flag that moves the port, and no ready file is left.
    func testTheFCMPortTakenStopsEveryListenerWithTheFlagThatMovesIt() async throws {
        let taken = try LoopbackListener()
        defer { taken.close() }
        let run = try await InspectCLI.run(["serve", "--port", "0", "--control-port", "0", "--fcm", "--fcm-port", "\(taken.port)",
                                            "--fcm-https-port", "0", "--ca-dir", directory + "/ca",
                                            "--ready-file", directory + "/ready.json"],
                                           timeout: .seconds(90), environment: ["XDG_DATA_HOME": directory + "/data"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("mockapns: cannot start the FCM front door: 127.0.0.1:\(taken.port): the address is already in use — change --fcm-port (0 picks a free port)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("change --fcm-port (0 picks a free port)"), run.stderr)
        XCTAssertFalse(run.stderr.contains("listening on"), "nothing is announced before every listener is up: \(run.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/ready.json"))
    }

    /// Waits until the database has no connection of a mock left (`application_name` is `mockapns …`): the process
    /// has exited, and the server notices a closed connection at once, a dropped one only later.
    private func assertNoMockConnections(_ cluster: PostgresCluster, database: String) async throws {
        var left = ""
        let gone = try await Poll.until(timeout: .seconds(20)) {
            left = try cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' "
                                    + "AND application_name LIKE 'mockapns%'", database: database)
            return left == "0"
        }
        XCTAssertTrue(gone, "\(left) connection(s) of the mock are still open")
    }

    /// The ports in `serve`'s "listening on", "control plane on" and "HTTP/1.1 APNs endpoint on" lines.
    private static func announcedPorts(in stderr: String) -> [Int] {
        stderr.split(separator: "\n").compactMap { line -> Int? in
            guard line.contains("listening on ") || line.contains("control plane on ") || line.contains("HTTP/1.1 APNs endpoint on ")
            else { return nil }
            guard let match = line.firstMatch(of: /127\.0\.0\.1:(\d+)/) else { return nil }
            return Int(match.1)
        }
    }
}
