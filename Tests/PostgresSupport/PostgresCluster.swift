import Foundation
import PeerSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL cluster for the store's tests: `initdb` into a temporary directory, `pg_ctl start` on a
/// free loopback port (and a Unix socket in that directory), stopped and deleted by ``stop()``. Debian's server
/// binaries (`postgresql` package, /usr/lib/postgresql/N/bin; `$PG_BIN` overrides). As root, every server command
/// runs as the `postgres` user (`runuser`), since PostgreSQL refuses to run as root.
///
/// The superuser is ``user`` with ``password`` (scram-sha-256 over TCP), so tests can give right and wrong
/// credentials; each test makes its own database (``createDatabase(_:)``).
public final class PostgresCluster: Sendable {
    /// The temporary directory holding the data, the socket and the log.
    public let directory: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The superuser's name.
    public let user = "mockapns"
    /// The superuser's password.
    public let password: String
    private let binaries: String
    private let asPostgres: Bool

    /// Creates and starts a cluster; throws with the server's log when it does not start.
    public init() throws {
        let binaries = try Self.findBinaries(), asPostgres = getuid() == 0
        self.binaries = binaries
        self.asPostgres = asPostgres
        func run(_ tool: String, _ arguments: [String]) throws -> PeerProcess.Output {
            try Self.run(tool, arguments, binaries: binaries, asPostgres: asPostgres)
        }
        directory = try TestDirectory.make("mockapns-pg", short: true)   // it holds the server's Unix socket
        password = "pw-\(UUID().uuidString.prefix(12))"
        try Data(password.utf8).write(to: URL(fileURLWithPath: directory + "/pwfile"))
        if asPostgres { try Self.check(PeerProcess.run("/bin/chown", ["-R", "postgres:", directory]), "chown") }
        try Self.check(run("initdb", ["-D", directory + "/data", "-U", user, "--pwfile=\(directory)/pwfile", "--auth-host=scram-sha-256",
                                 "--auth-local=trust", "--no-sync", "-E", "UTF8"]), "initdb")
        var started = false
        var lastPort = 0
        for _ in 0..<5 where !started {
            lastPort = try Self.freePort()
            // Not through `Process`: the server pg_ctl leaves running inherits the descriptor Foundation watches for
            // the child's exit, so `Process` would wait for the server to stop.
            started = try Self.startServer(directory: directory, port: lastPort, binaries: binaries, asPostgres: asPostgres)
        }
        port = lastPort
        guard started else {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw ClusterError("PostgreSQL did not start in \(directory): \(log)")
        }
    }

    /// A `postgres://` URL for `database` (with the right password unless another is given).
    public func url(database: String, password: String? = nil, user: String? = nil, host: String = "127.0.0.1",
                    port: Int? = nil) -> String {
        "postgres://\(user ?? self.user):\(password ?? self.password)@\(host):\(port ?? self.port)/\(database)?sslmode=disable"
    }

    /// Creates a database and returns its name.
    @discardableResult
    public func createDatabase(_ name: String) throws -> String {
        _ = try psql("CREATE DATABASE \(name)", database: "postgres")
        return name
    }

    /// Runs `sql` with psql over the Unix socket; returns its unaligned output.
    public func psql(_ sql: String, database: String) throws -> String {
        let output = try run("psql", ["-h", directory, "-p", String(port), "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1",
                                      "-A", "-t", "-q", "-c", sql])
        try check(output, "psql -c \(sql)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pg_ctl start` on `port`; whether the server came up.
    private static func startServer(directory: String, port: Int, binaries: String, asPostgres: Bool) throws -> Bool {
        let tool = binaries + "/pg_ctl"
        let arguments = ["-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o",
                         "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off",
                         "start"]
        return try spawnAndWait(asPostgres ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments) == 0
    }

    /// Stops the server as an operator's restart would (fast shutdown: sessions are cut, committed data kept), for
    /// ``resume()`` to start it again: a database going away under a running mock.
    public func pause() throws {
        try check(run("pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "60", "stop"]), "pg_ctl stop")
    }

    /// Starts a paused server again, on the same port.
    public func resume() throws {
        guard try Self.startServer(directory: directory, port: port, binaries: binaries, asPostgres: asPostgres) else {
            let log = (try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? ""
            throw ClusterError("PostgreSQL did not start again in \(directory): \(log.suffix(2_000))")
        }
    }

    /// Stops the server at once and deletes the directory.
    public func stop() {
        _ = try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> PeerProcess.Output {
        try Self.run(tool, arguments, binaries: binaries, asPostgres: asPostgres)
    }

    private static func run(_ tool: String, _ arguments: [String], binaries: String, asPostgres: Bool) throws -> PeerProcess.Output {
        let path = binaries + "/" + tool
        if asPostgres { return try PeerProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, timeout: 120) }
        return try PeerProcess.run(path, arguments, timeout: 120)
    }

    private func check(_ output: PeerProcess.Output, _ what: String) throws {
        try Self.check(output, what)
    }

    private static func check(_ output: PeerProcess.Output, _ what: String) throws {
        guard output.status == 0 else { throw ClusterError("\(what) failed (\(output.status)): \(output.stderr)\(output.stdout)") }
    }

    /// The newest /usr/lib/postgresql/N/bin with initdb, or `$PG_BIN`.
    private static func findBinaries() throws -> String {
        if let given = ProcessInfo.processInfo.environment["PG_BIN"] { return given }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        throw ClusterError("no PostgreSQL server found under \(root) (install Debian's postgresql package: `make deps`), or set PG_BIN")
    }

    /// Runs `argv` with `posix_spawn`, its output discarded, and waits for it with `waitpid`; returns its exit status.
    private static func spawnAndWait(_ argv: [String]) throws -> Int32 {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #elseif canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil   // an opaque pointer there, which _init allocates
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        #if canImport(Glibc)
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        #elseif canImport(Darwin)
        // Darwin's module does not give Swift `environ`.
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, _NSGetEnviron().pointee)
        #endif
        guard spawned == 0 else { throw ClusterError("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// A port nothing listens on right now (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        try PeerProcess.freePort()
    }

    /// Why the cluster could not be made.
    public struct ClusterError: Error, CustomStringConvertible {
        /// What failed, with the tool's output.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
