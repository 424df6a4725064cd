import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The connection-churn rule: more than `limit` new token connections of one team within a second.
final class ConnectionChurnMonitorTests: LeakCheckedTestCase {
    func testFlagsConnectionsOverTheLimitWithinOneSecond() {
        let monitor = ConnectionChurnMonitor(limit: 3)
        let base: Int64 = 1_800_000_000_000
        let flags = (0..<6).map { monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: base + Int64($0) * 100) }
        XCTAssertEqual(flags, [false, false, false, true, true, true], "the 4th, 5th and 6th within a second are over 3")
        XCTAssertEqual(monitor.flaggedConnections, 3)
        XCTAssertFalse(monitor.connectionAuthenticated(team: "OTHERTEAM1", nowMillis: base + 600), "counted per team")
        XCTAssertFalse(monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: base + 10_000), "the window slides")
    }

    func testSteadyConnectionsAreNeverFlagged() {
        let monitor = ConnectionChurnMonitor(limit: 3)
        for second in 0..<100 {
            XCTAssertFalse(monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: Int64(second) * 1000))
        }
        XCTAssertEqual(monitor.flaggedConnections, 0)
    }

    func testZeroTurnsTheCheckOff() {
        let monitor = ConnectionChurnMonitor(limit: 0)
        for _ in 0..<100 { XCTAssertFalse(monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: 0)) }
    }

    func testTrackedTeamsAreBounded() {
        let monitor = ConnectionChurnMonitor(limit: 1)
        for team in 0..<(ConnectionChurnMonitor.maximumTeams + 10) {
            _ = monitor.connectionAuthenticated(team: "T\(team)", nowMillis: 0)
        }
        // Teams past the bound are not tracked (never flagged) while every tracked team is within its window.
        XCTAssertFalse(monitor.connectionAuthenticated(team: "NEWTEAM", nowMillis: 0))
        XCTAssertFalse(monitor.connectionAuthenticated(team: "NEWTEAM", nowMillis: 0))
        // Once the window has passed, idle teams are forgotten and new ones tracked again.
        XCTAssertFalse(monitor.connectionAuthenticated(team: "LATER", nowMillis: 5_000))
        XCTAssertTrue(monitor.connectionAuthenticated(team: "LATER", nowMillis: 5_001))
    }

    func testAnHTTP1KeepAlivePoolGrowingIsNotChurn() {
        let monitor = ConnectionChurnMonitor(limit: 3)
        // 47 connections in 100 ms, none closed: a pool reaching the requests in flight (APNSwift, 100 in flight).
        let flags = (0..<47).map { monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: Int64($0) * 2, transport: .http1) }
        XCTAssertEqual(flags.filter { $0 }.count, 0)
        XCTAssertEqual(monitor.flaggedConnections, 0)
        // The same opening rate over HTTP/2 is churn.
        let http2 = (0..<47).map { monitor.connectionAuthenticated(team: "H2TEAM0001", nowMillis: Int64($0) * 2) }
        XCTAssertEqual(http2.filter { $0 }.count, 44)
    }

    func testHTTP1ConnectionsReplacingClosedOnesAreChurn() {
        let monitor = ConnectionChurnMonitor(limit: 3)
        var flags: [Bool] = []
        // A connection per push: each opens, sends one push and closes; the next replaces it.
        for push in 0..<6 {
            let now = Int64(push) * 50
            flags.append(monitor.connectionAuthenticated(team: "TESTTEAM01", nowMillis: now, transport: .http1))
            monitor.connectionClosed(team: "TESTTEAM01", nowMillis: now + 10)
        }
        XCTAssertEqual(flags, [false, false, false, false, true, true], "the first is no replacement; the 4th replacement is over 3")
        // A close more than a second old does not make a new connection a replacement.
        monitor.connectionClosed(team: "QUIETTEAM1", nowMillis: 0)
        XCTAssertFalse(monitor.connectionAuthenticated(team: "QUIETTEAM1", nowMillis: 2_000, transport: .http1))
        for step in 0..<5 { XCTAssertFalse(monitor.connectionAuthenticated(team: "QUIETTEAM1", nowMillis: 2_001 + Int64(step), transport: .http1)) }
    }
}
