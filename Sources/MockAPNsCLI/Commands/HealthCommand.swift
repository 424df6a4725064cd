import APNsModel
import ArgumentParser
import Foundation

/// `mockapns health`: asks a running mock's control plane whether it serves (`GET /healthz`, which needs no token),
/// for a container's HEALTHCHECK or a script. Unlike `wait`, which only sees that the ready file exists, this gets
/// an answer from the running process, so a stopped or hung server is reported unhealthy.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check that a running mock answers: GET /healthz on its control plane.",
        discussion: """
            The control plane is read from --server, or from the ready file (--ready-file, else $MOCKAPNS_READY_FILE). \
            Exit status: 0 healthy, 1 not answering (the reason on standard error), 2 usage error.
            """
    )

    @Option(name: .customLong("ready-file"), help: ArgumentHelp("The file given to serve --ready-file (default $MOCKAPNS_READY_FILE).", valueName: "path"))
    var readyFile: String?

    @Option(help: ArgumentHelp("Control-plane URL instead of a ready file.", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Double = 5

    func validate() throws {
        guard timeout > 0, timeout <= 3_600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds, got \(timeout)") }
        if server != nil, readyFile != nil { throw ValidationError("give --server or --ready-file, not both") }
    }

    func run() async throws {
        let control: String
        if let server {
            control = server
        } else {
            guard let path = readyFile ?? ProcessInfo.processInfo.environment["MOCKAPNS_READY_FILE"], !path.isEmpty else {
                throw ValidationError("say where the mock is: --server URL, --ready-file PATH or MOCKAPNS_READY_FILE")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                Self.unhealthy("no ready file at \(path): the mock is not (yet) serving")
            }
            guard let url = (try? JSONValue.parse(Array(data)))?["control_url"]?.stringValue else {
                Self.unhealthy("\(path) names no control_url: the mock runs without a control plane (use mockapns wait)")
            }
            control = url
        }
        guard let url = URL(string: control.hasSuffix("/") ? control + "healthz" : control + "/healthz"), url.scheme != nil else {
            throw ValidationError("'\(control)' is not a URL such as http://127.0.0.1:2198")
        }
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await ControlHTTP.get(url.absoluteString, token: nil, timeout: timeout)
        } catch {
            Self.unhealthy("\(url.absoluteString) did not answer: \(error.description)")
        }
        guard answer.status == 200, (try? JSONValue.parse(answer.body))?["status"]?.stringValue == "ok" else {
            Self.unhealthy("\(url.absoluteString) answered \(answer.status): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        }
    }

    /// Says why on standard error and exits 1.
    private static func unhealthy(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("mockapns health: unhealthy: \(reason)\n".utf8))
        Foundation.exit(1)
    }
}
