import APNsModel
import DeviceSimulation
import Logging
import Support

/// Notices senders that open a new TLS connection (and mint a new provider token) for every push.
///
/// Apple asks providers to keep connections open across many notifications: "APNs treats rapid connection and
/// disconnection as a denial-of-service attack" (Local and Remote Notification Programming Guide, "Communicating
/// with APNs", developer.apple.com/library/archive/…/CommunicatingwithAPNs.html; the current "Establishing a
/// connection to APNs" page only says to open several connections for volume), and to refresh tokens no more
/// than every 20 minutes. No number is given anywhere, so the threshold is ours and settable
/// (`MockConfiguration.newConnectionsPerSecondLimit`).
/// When more token connections of one team than that authenticate within one second, every such connection is
/// flagged: its records carry a `new-connection-per-push` finding (so a sender's test can assert on it), `stats`
/// counts them, and a warning is logged (at most once a minute per team).
///
/// Memory is bounded: per team at most `limit + 1` timestamps, and at most `maximumTeams` teams (teams come
/// from tokens, which `--trust-any-signature` lets anyone name).
final class ConnectionChurnMonitor: Sendable {
    /// The finding's identifier on records (beside the payload linter's `LintRule` identifiers).
    static let findingID = RecordedRequest.connectionChurnFindingID
    /// Teams tracked at once; past it, teams idle for a window are forgotten, and new ones are not tracked.
    static let maximumTeams = 4096
    /// Between two warnings about the same team in the log.
    static let warningIntervalMillis: Int64 = 60_000

    private struct TeamWindow {
        var openedAtMillis: [Int64] = []
        /// When the team's HTTP/1.1 connections closed (at most `limit + 1`, within the last second).
        var closedAtMillis: [Int64] = []
        var lastWarningMillis: Int64?
    }

    private struct State {
        var teams: [String: TeamWindow] = [:]
        var flaggedConnections = 0
    }

    private let limit: Int
    private let state = Locked(State())
    /// Where the warnings go: the server's logger, so they follow its level and handler.
    private let logger: Logger

    /// A monitor flagging more than `limit` new token connections per second per team (0 turns it off), warning
    /// through `logger`.
    init(limit: Int, logger: Logger = Logger(label: "mockapns")) {
        self.limit = limit
        self.logger = logger
    }

    /// How many connections have been flagged so far.
    var flaggedConnections: Int { state.withLock { $0.flaggedConnections } }

    /// Counts a token connection of `team` authenticated at `nowMillis`; `true` when it pushes the team's rate
    /// over the limit (the connection is then flagged).
    ///
    /// An HTTP/1.1 connection counts only when it replaces one of the team's HTTP/1.1 connections closed within the
    /// last second (``connectionClosed(team:nowMillis:)``): a keep-alive pool growing to the requests in flight is
    /// how HTTP/1.1 senders work, a connection closed after each push and opened again is churn.
    func connectionAuthenticated(team: String, nowMillis: Int64, transport: PipelineTransport = .http2) -> Bool {
        guard limit > 0 else { return false }
        let (flagged, warn, rate) = state.withLock { state -> (Bool, Bool, Int) in
            if state.teams[team] == nil, state.teams.count >= Self.maximumTeams {
                state.teams = state.teams.filter { Self.lastActivity($0.value) >= nowMillis &- 1000 }
                if state.teams.count >= Self.maximumTeams { return (false, false, 0) }
            }
            var window = state.teams[team, default: TeamWindow()]
            if transport == .http1 {
                window.closedAtMillis.removeAll { $0 < nowMillis &- 1000 }
                guard !window.closedAtMillis.isEmpty else {
                    // A pool growing: not counted (the team is only tracked once it closes connections).
                    if state.teams[team] != nil { state.teams[team] = window }
                    return (false, false, 0)
                }
                window.closedAtMillis.removeFirst()
            }
            window.openedAtMillis.removeAll { $0 < nowMillis &- 1000 }
            window.openedAtMillis.append(nowMillis)
            if window.openedAtMillis.count > limit + 1 { window.openedAtMillis.removeFirst(window.openedAtMillis.count - limit - 1) }
            let over = window.openedAtMillis.count > limit
            var warn = false
            if over {
                state.flaggedConnections += 1
                if window.lastWarningMillis.map({ nowMillis &- $0 >= Self.warningIntervalMillis }) ?? true {
                    window.lastWarningMillis = nowMillis
                    warn = true
                }
            }
            let rate = window.openedAtMillis.count
            state.teams[team] = window
            return (over, warn, rate)
        }
        if warn {
            logger.warning("a sender opens a new connection for (almost) every push: keep connections open and reuse them", metadata: [
                "team": "\(team)", "new_connections_last_second": "\(rate)", "limit": "\(limit)",
            ])
        }
        return flagged
    }

    /// Notes that an HTTP/1.1 connection of `team` closed at `nowMillis`, so the team's next new HTTP/1.1
    /// connection within a second counts as its replacement.
    func connectionClosed(team: String, nowMillis: Int64) {
        guard limit > 0 else { return }
        state.withLock { state in
            if state.teams[team] == nil, state.teams.count >= Self.maximumTeams {
                state.teams = state.teams.filter { Self.lastActivity($0.value) >= nowMillis &- 1000 }
                if state.teams.count >= Self.maximumTeams { return }
            }
            var window = state.teams[team, default: TeamWindow()]
            window.closedAtMillis.removeAll { $0 < nowMillis &- 1000 }
            window.closedAtMillis.append(nowMillis)
            if window.closedAtMillis.count > limit + 1 { window.closedAtMillis.removeFirst(window.closedAtMillis.count - limit - 1) }
            state.teams[team] = window
        }
    }

    /// The last time a team opened or closed a counted connection.
    private static func lastActivity(_ window: TeamWindow) -> Int64 {
        max(window.openedAtMillis.last ?? .min, window.closedAtMillis.last ?? .min)
    }

    /// The finding put on the records of a flagged connection.
    func finding(team: String) -> LintFinding {
        LintFinding(
            id: Self.findingID, severity: .warning,
            message: "Team \(team) opened more than \(limit) new connections within a second: open a connection once and "
                + "send every push on it (APNs treats rapid connection churn as abuse and may refuse the sender).",
            path: "connection")
    }
}
