import Foundation

/// Why a push was not accepted, with what to do about it (`description`).
public enum APNsClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// APNs answered with an error status. `timestamp` (milliseconds since 1970) comes with 410: when the token
    /// stopped being valid. `apnsID` is the request's `apns-id`.
    case rejected(status: Int, reason: APNsErrorReason, timestamp: Int64?, apnsID: String)
    /// No answer within `requestTimeout`.
    case timeout
    /// The connection was lost mid-request (GOAWAY, closed, reset…) and retries, if any, did not help.
    case connection(String)
    /// No connection could be opened within the push's `requestTimeout` (refused, TLS failure, connect timeout):
    /// the cause, the address, and the pool's attempts and time so far.
    case unreachable(APNsConnectFailure)
    /// The configuration cannot be used (bad URL, unreadable key…).
    case invalidConfiguration(String)
    /// The notification cannot be sent as built (e.g. a device token that is not hex).
    case invalidNotification(String)
    /// The client was shut down before the push was sent.
    case shutdown
    /// The calling task was cancelled.
    case cancelled

    /// Whether the same request may succeed later without changes (429, 500, 503).
    public var isRetryable: Bool {
        guard case let .rejected(status, reason, _, _) = self else { return false }
        if let known = reason.reason { return known.isRetryable }
        return status == 429 || status == 500 || status == 503
    }

    /// The APNs reason when rejected.
    public var reason: APNsErrorReason? {
        if case let .rejected(_, reason, _, _) = self { return reason }
        return nil
    }

    /// `2026-11-23 10:06:41 UTC` for APNs's 410 timestamp (milliseconds since 1970): the moment a person
    /// reading the error needs, not the number.
    static func utcDate(millisecondsSince1970 milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC"
    }

    /// A sentence saying what happened and what to do.
    public var description: String {
        switch self {
        case let .rejected(status, reason, timestamp, apnsID):
            var text = "APNs rejected the push (\(status) \(reason), apns-id \(apnsID)): \(reason.explanation)"
            if let timestamp { text += " The token has been invalid since \(Self.utcDate(millisecondsSince1970: timestamp))." }
            return text
        case .timeout:
            return "APNs did not answer in time; check the network or raise requestTimeout, then resend with the same apns-id."
        case let .connection(detail):
            return "Could not reach APNs: \(detail). Check the URL, the network and the trusted CA, then retry."
        case let .unreachable(failure):
            return "\(failure.description). Check that the server is up and that the URL, the network and the trusted "
                + "CA are right; the client keeps reconnecting with back-off (100 ms doubling to 30 s)."
        case let .invalidConfiguration(detail):
            return "The client configuration is invalid: \(detail)"
        case let .invalidNotification(detail):
            return "The notification cannot be sent: \(detail)"
        case .shutdown:
            return "The client has been shut down; create a new APNsClient to send more."
        case .cancelled:
            return "The push was cancelled before APNs answered."
        }
    }
}
