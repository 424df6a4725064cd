import ArgumentParser
import Foundation

/// `mockapns wait --ready-file F [--timeout 30] [--pid N]`: blocks until `serve --ready-file F` has written the
/// file (every listener up), then prints it; gives up after the timeout, or as soon as the serving process has
/// exited. A CI script then cannot loop forever on a mock that failed to start:
///
/// ```sh
/// mockapns serve --port 0 --ready-file mock.json & 
/// mockapns wait --ready-file mock.json --pid $! --timeout 30
/// ```
struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until `mockapns serve --ready-file PATH` is ready, then print the ready file.",
        discussion: """
            serve removes the ready file when it starts and writes it (atomically) once every listener is up, so an \
            old file from an earlier run is never mistaken for a ready server. Exit status: 0 ready, 1 timed out or \
            the --pid process exited first, 2 usage error.
            """
    )

    @Option(name: .customLong("ready-file"), help: ArgumentHelp("The file given to serve --ready-file.", valueName: "path"))
    var readyFile: String

    @Option(help: ArgumentHelp("Seconds to wait before giving up.", valueName: "seconds"))
    var timeout: Double = 30

    @Option(help: ArgumentHelp(
        "The serve process (e.g. $!): only its ready file counts (not one left by an earlier run), and waiting stops as soon as it has exited.",
        valueName: "pid"))
    var pid: Int32?

    @Flag(help: "Print nothing when ready.") var silent = false

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout must be between 0 and 86400 seconds, got \(timeout)") }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(timeout * 1000))
        while true {
            if let contents = ReadyFileProbe.readyContents(at: readyFile, pid: pid) {
                if !silent { FileHandle.standardOutput.write(contents + Data("\n".utf8)) }
                return
            }
            if let pid, !ReadyFileProbe.isRunning(pid: pid) {
                FileHandle.standardError.write(Data("mockapns wait: process \(pid) exited before \(readyFile) was written (see its output for why)\n".utf8))
                throw ExitCode(1)
            }
            if clock.now >= deadline {
                FileHandle.standardError.write(Data("mockapns wait: \(readyFile) was not written within \(Self.seconds(timeout)) s\n".utf8))
                throw ExitCode(1)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
