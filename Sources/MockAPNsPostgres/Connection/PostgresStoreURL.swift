import Foundation

/// A `--store` URL, `postgres://user[:password]@host[:port]/database?sslmode=…`, read the way libpq users expect:
/// the password from the URL, else `PGPASSWORD`, else the `~/.pgpass` file (`PGPASSFILE`); the user from the URL,
/// else `PGUSER`, else the login name; the database defaults to the user's name, the port to 5432, `sslmode` to
/// `prefer`. The password is kept for connecting only: ``redacted`` (what messages print) never shows it.
public struct PostgresStoreURL: Sendable, Equatable {
    /// How the connection uses TLS (`sslmode`): libpq's names, with `require`, `verify-ca` and `verify-full` all
    /// meaning TLS with the server's certificate verified (stricter than libpq's `require`).
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, else plain TCP (libpq's default).
        case prefer
        /// TLS, with the certificate verified; no plain TCP.
        case require
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The user to log in as.
    public var user: String
    /// The password, when one was found; never printed.
    public var password: String?
    /// The database.
    public var database: String
    /// TLS use.
    public var tls: TLSMode

    /// Parses `text`; `environment` supplies `PGUSER`, `PGPASSWORD`, `PGPASSFILE` and `HOME`.
    ///
    /// - Throws: ``PostgresStoreError/malformedURL(_:)`` naming what is wrong and the expected shape.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresStoreError) {
        let shape = "expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]"
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw .malformedURL("--store is not a URL; \(shape)")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .malformedURL("--store must start with postgres:// (got \(scheme)://); \(shape)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .malformedURL("--store names no host; \(shape)")
        }
        self.host = host
        port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .malformedURL("--store port \(port) is out of range; \(shape)") }
        user = components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? NSUserName()
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw .malformedURL("--store database name may not contain '/' (got \"\(path)\"); \(shape)") }
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        var mode = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value ?? "" {
                case "disable", "allow": mode = .disable
                case "prefer": mode = .prefer
                case "require", "verify-ca", "verify-full": mode = .require
                default:
                    throw .malformedURL("--store sslmode must be disable, prefer or require (got \"\(item.value ?? "")\")")
                }
            default:
                throw .malformedURL("--store has an unknown parameter \"\(item.name)\" (only sslmode is understood); \(shape)")
            }
        }
        tls = mode
        password = components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
            ?? PgPassFile(environment: environment)?.password(host: host, port: port, database: database, user: user)
    }

    /// The URL without its password, for messages and logs: `postgres://user@host:port/database`.
    public var redacted: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(shownHost):\(port)/\(database)"
    }
}
