import XCTest
@testable import MockAPNs

/// The connection-churn rule: more than `limit` new token connections of one team within a second.
final class ConnectionChurnMonitorTests: XCTestCase {
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
}
