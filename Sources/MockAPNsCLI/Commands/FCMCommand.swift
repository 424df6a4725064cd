import ArgumentParser
import Foundation
import JSON

/// `mockapns fcm …`: the FCM front door of a running mock (`serve --fcm`, docs/fcm.md).
struct FCMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcm",
        abstract: "Set up the FCM front door of a running mock (serve --fcm).",
        subcommands: [ServiceAccountCommand.self]
    )

    /// `mockapns fcm service-account --project P`: a new service-account key file the running mock trusts.
    struct ServiceAccountCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "service-account",
            abstract: "Make a service-account key file for a project, trusted by the running mock from then on.",
            discussion: """
                Prints the file (or writes it to --output, readable by its owner only). Hand it to \
                firebase_admin.credentials.Certificate(path) or GOOGLE_APPLICATION_CREDENTIALS. The mock keeps it in its \
                data folder, so it stays trusted across restarts. Exit status: 0 made, 1 refused, 2 usage error or no mock.
                """
        )

        @Option(help: "The project id (6 to 30 of a-z, 0-9 and '-', a letter first; default mockapns-test).") var project = "mockapns-test"
        @Option(help: ArgumentHelp("Write the file here instead of printing it.", valueName: "path")) var output: String?
        @Option(name: .long, help: ArgumentHelp("Control-plane URL of the running mock (default http://127.0.0.1:2198).", valueName: "url"))
        var server: String?
        @Option(name: .customLong("ready-file"), help: ArgumentHelp("Read the control URL from the file `serve --ready-file` wrote.", valueName: "path"))
        var readyFile: String?
        @Option(name: .customLong("control-token"), help: ArgumentHelp("Bearer token of a control plane started with --control-token (default: $MOCKAPNS_CONTROL_TOKEN).", valueName: "token"))
        var controlToken: String?

        func run() async throws {
            let base: URL
            do {
                if let readyFile { base = try SourceOptions.controlURL(fromReadyFile: readyFile) } else {
                    guard let url = URL(string: server ?? "http://127.0.0.1:2198"), url.host != nil else {
                        throw ValidationError("--server must be a URL such as http://127.0.0.1:2198")
                    }
                    base = url
                }
            } catch let error as InspectError {
                throw ValidationError("\(error)")
            }
            let encoded = project.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? project
            let url = base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                + "/api/v1/fcm/projects/\(encoded)/service-account"
            let status: Int
            let body: [UInt8]
            do {
                (status, body) = try await ControlHTTP.post(url, token: controlToken ?? ProcessInfo.processInfo.environment["MOCKAPNS_CONTROL_TOKEN"],
                                                            timeout: 30)
            } catch {
                FileHandle.standardError.write(Data("mockapns: no mock answered at \(url): \(error)\n".utf8))
                throw ExitCode(2)
            }
            guard status == 201 else {
                let reason = (try? JSONValue.parse(body))?["error"]?.stringValue ?? String(decoding: body, as: UTF8.self)
                FileHandle.standardError.write(Data("mockapns: the mock refused (\(status)): \(reason)\n".utf8))
                throw ExitCode(1)
            }
            let text = ((try? JSONValue.parse(body))?.prettyText() ?? String(decoding: body, as: UTF8.self)) + "\n"
            guard let output else {
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                FileHandle.standardError.write(Data("mockapns: cannot write \(output)\n".utf8))
                throw ExitCode(1)
            }
            FileHandle.standardError.write(Data("mockapns: wrote the service account of \(project) to \(output)\n".utf8))
        }
    }
}
