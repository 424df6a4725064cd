import Foundation
import PostgresNIO

/// Why the PostgreSQL store cannot start or answer, as one sentence an operator can act on; never with the password.
public enum PostgresStoreError: Error, CustomStringConvertible, Equatable {
    /// The `--store` URL cannot be used (exit status 2 from the CLI).
    case malformedURL(String)
    /// The database could not be reached or refused the login or a query (exit status 1 from the CLI).
    case unavailable(String)
    /// The database's schema was written by a newer MockAPNs than this one.
    case newerSchema(found: Int, supported: Int, store: String)

    /// The sentence.
    public var description: String {
        switch self {
        case .malformedURL(let message), .unavailable(let message):
            return message
        case .newerSchema(let found, let supported, let store):
            return "the store \(store) has schema version \(found), written by a newer mockapns; this one supports "
                + "up to version \(supported). Upgrade mockapns, or point --store at another database"
        }
    }

    /// Why a connection attempt failed, in a few words ("Connection refused", "cannot resolve the host …").
    private static func cause(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return cause(first.error) }
            if let dns = failure.dnsAError ?? failure.dnsAAAAError { return "cannot resolve the host (\(dns))" }
            return "no address to connect to"
        }
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let channel = error as? ChannelError, case .connectTimeout(let after) = channel {
            return "no answer within \(after.nanoseconds / 1_000_000_000) s"
        }
        return "\(error)"
    }

    /// The connection to `store` closed under the mock.
    private static func closed(_ store: String) -> PostgresStoreError {
        .unavailable("the connection to PostgreSQL at \(store) was closed — is the server running?")
    }

    /// `error` (from PostgresNIO, or one of these) as an ``unavailable(_:)`` sentence about the store at `store`.
    static func describing(_ error: any Error, store: String) -> PostgresStoreError {
        if let known = error as? PostgresStoreError { return known }
        if error is PostgresConnectionLost { return closed(store) }
        if let stalled = error as? PostgresStatementStalled, stalled.backendsLeft > 0 {
            return .unavailable("PostgreSQL at \(store): waiting for the server process of a connection that stopped "
                + "answering to end, so that its last batch can be checked before it is written again")
        }
        if let stalled = error as? PostgresStatementStalled {
            return .unavailable("PostgreSQL at \(store) stopped answering in the middle of a statement (nothing for "
                + "\(stalled.after.formattedSeconds)); closed the connection and opening a new one — is the server overloaded, "
                + "stopped or cut off?")
        }
        guard let error = error as? PSQLError else { return .unavailable("PostgreSQL at \(store): \(error)") }
        switch error.code {
        case .server:
            let state = error.sqlState ?? "?"
            let message = error.serverInfo?[.message] ?? "an error"
            switch state {
            case "28P01", "28000":
                return .unavailable("PostgreSQL at \(store) refused the login: \(message) — check the user and password "
                    + "(in the URL, PGPASSWORD or ~/.pgpass)")
            case "3D000":
                return .unavailable("PostgreSQL at \(store): \(message) — create it (createdb) or name another database in --store")
            default:
                return .unavailable("PostgreSQL at \(store) answered: \(message) (SQLSTATE \(state))")
            }
        case .connectionError:
            let cause = error.underlying.map(Self.cause) ?? "no connection"
            return .unavailable("cannot connect to PostgreSQL at \(store): \(cause) — is the server running and the host and port right?")
        case .authMechanismRequiresPassword:
            return .unavailable("PostgreSQL at \(store) asks for a password and none was given: put it in the URL, "
                + "PGPASSWORD or ~/.pgpass")
        case .sslUnsupported:
            return .unavailable("PostgreSQL at \(store) does not offer TLS, but the URL says sslmode=require: use "
                + "sslmode=prefer or sslmode=disable")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return closed(store)
        default:
            return .unavailable("PostgreSQL at \(store) failed: \(error.code)")
        }
    }
}

extension Duration {
    /// "5 s", "0.5 s".
    var formattedSeconds: String {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000) s" : "\(Double(millis) / 1000) s"
    }
}
