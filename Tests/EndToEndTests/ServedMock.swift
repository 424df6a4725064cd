import APNsModel
import Foundation

/// A `mockapns serve` a test started with ``start(_:readyFile:readyFileFromEnvironment:record:store:environment:shellPrefix:timeout:)``:
/// its process and what its ready file said. Every suite that needs a running mock starts it this way, except the
/// first two tests of `ServeReadyFileTests`, which test the ready file and `mockapns wait` themselves.
struct ServedMock {
    /// The running `serve` (stop it with `stop()`, `terminate()` or `kill()`; it is killed when released).
    let process: InspectFollowProcess
    /// The ready file, parsed.
    let ready: JSONValue
    /// Its APNs endpoint (`apns_url`).
    let apnsURL: String

    /// Its control plane (`control_url`), unless started with `--no-control`.
    var controlURL: String? { ready["control_url"]?.stringValue }
    /// Its HTTP/1.1 APNs endpoint (`http1_url`), when started with `--http1-port`.
    var http1URL: String? { ready["http1_url"]?.stringValue }

    /// The process id (for `mockapns wait --pid`).
    var pid: Int32 { process.pid }

    /// Waits for it to exit by itself (``InspectFollowProcess/waitForExit(timeout:)``).
    func waitForExit(timeout: Duration = .seconds(15)) async throws -> InspectCLI.Result? {
        try await process.waitForExit(timeout: timeout)
    }

    /// Interrupts it (SIGINT, as ^C: it flushes and exits 0).
    func stop() { process.stop() }
    /// Terminates it (SIGTERM).
    func terminate() { process.terminate() }
    /// Kills it (SIGKILL: no chance to flush or close anything).
    func kill() { process.kill() }

    /// Which shared store a `serve --store` instance writes to, and its name there.
    struct Store {
        /// The PostgreSQL URL (`--store`).
        let url: String
        /// The instance's name (`--instance-name`).
        let instance: String
    }

    /// `serve` never wrote a ready file naming its own process, or it has no `apns_url`.
    struct NotReady: Error, CustomStringConvertible {
        /// The arguments it was started with.
        let arguments: [String]
        /// What it wrote to standard error.
        let stderr: String
        var description: String { "mockapns \(arguments.joined(separator: " ")) never became ready; its errors: \(stderr)" }
    }

    /// Starts the built `mockapns serve arguments…` and waits for its ready file.
    ///
    /// - Parameters:
    ///   - arguments: what follows `serve` (ports, `--quiet`, `--record`, …), given as they are.
    ///   - readyFile: where `serve` writes its ready file; appended as `--ready-file readyFile`, or given as
    ///     `MOCKAPNS_READY_FILE` when `readyFileFromEnvironment`.
    ///   - record: a record file: appended as `--record record`.
    ///   - store: a shared store: appended as `--store URL --instance-name NAME`.
    ///   - environment: entries added to (a nil value: removed from) the test process's environment.
    ///   - shellPrefix: shell commands run before the binary replaces the shell (`ulimit …`, `trap …`).
    ///   - timeout: how long to wait for the ready file.
    /// - Returns: once the ready file names this process (`pid`: a stale file from an earlier run is not taken) and
    ///   has an `apns_url`; throws ``NotReady`` (with the process's standard error) and kills it otherwise.
    static func start(_ arguments: [String], readyFile: String, readyFileFromEnvironment: Bool = false, record: String? = nil,
                      store: Store? = nil,
                      environment: [String: String?] = [:], shellPrefix: String? = nil,
                      timeout: Duration = .seconds(20)) async throws -> ServedMock {
        var all = ["serve"] + arguments
        var environment = environment
        if readyFileFromEnvironment { environment["MOCKAPNS_READY_FILE"] = readyFile } else { all += ["--ready-file", readyFile] }
        if let record { all += ["--record", record] }
        if let store { all += ["--store", store.url, "--instance-name", store.instance] }
        let process = try InspectFollowProcess(all, environment: environment, shellPrefix: shellPrefix)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, process.isRunning {
            if let data = FileManager.default.contents(atPath: readyFile), let json = try? JSONValue.parse(Array(data)),
               json["pid"]?.integerValue == Int64(process.pid), let apns = json["apns_url"]?.stringValue {
                return ServedMock(process: process, ready: json, apnsURL: apns)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.kill()
        throw NotReady(arguments: all, stderr: process.stderr)
    }
}
