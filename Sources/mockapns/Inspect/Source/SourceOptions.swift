import ArgumentParser
import Foundation

/// Where the records come from: a live control plane (`--server`, `--ready-file`) or a recording
/// written by `mockapns serve --record` (`--file`).
///
/// Without any of the three flags, `$MOCKAPNS_SERVER` or `$MOCKAPNS_READY_FILE` (the variable `serve`
/// also reads) name the server; otherwise it is `http://127.0.0.1:2198`.
struct SourceOptions: ParsableArguments {
    /// The default control-plane address.
    static let defaultServer = "http://127.0.0.1:2198"

    @Option(name: .long, help: ArgumentHelp("Control-plane URL of a running mock.", valueName: "url"))
    var server: String?

    @Option(name: .customLong("ready-file"), help: ArgumentHelp("Read the control URL (control_url) from the JSON file `mockapns serve --ready-file` wrote.", valueName: "path"))
    var readyFile: String?

    @Option(name: .long, help: ArgumentHelp("Read a JSON Lines recording instead of a live server.", valueName: "rec.jsonl"))
    var file: String?

    @Option(name: .customLong("control-token"), help: ArgumentHelp("Bearer token for a control plane started with --control-token (default: $MOCKAPNS_CONTROL_TOKEN).", valueName: "token"))
    var controlToken: String?

    /// The source these options name; at most one of `--server`, `--ready-file`, `--file`.
    func resolve() throws(InspectError) -> RecordSource {
        let given = [server, readyFile, file].compactMap { $0 }
        guard given.count <= 1 else {
            throw .usage("Give at most one of --server, --ready-file and --file.")
        }
        if let file { return .file(RecordFile(path: file)) }
        let environment = ProcessInfo.processInfo.environment
        let token = controlToken ?? environment["MOCKAPNS_CONTROL_TOKEN"]
        let server = given.isEmpty ? environment["MOCKAPNS_SERVER"] : self.server
        let readyFile = given.isEmpty && server == nil ? environment["MOCKAPNS_READY_FILE"] : self.readyFile
        if let readyFile {
            return .live(ControlClient(baseURL: try Self.controlURL(fromReadyFile: readyFile), token: token))
        }
        let address = server ?? Self.defaultServer
        guard let url = URL(string: address), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw .usage("--server needs an http:// URL such as \(Self.defaultServer); got '\(address)'.")
        }
        return .live(ControlClient(baseURL: url, token: token))
    }

    /// `control_url` from a ready file.
    static func controlURL(fromReadyFile path: String) throws(InspectError) -> URL {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file, or not readable (is `mockapns serve --ready-file \(path)` running?)")
        }
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let text = object?["control_url"] as? String, let url = URL(string: text) else {
            throw .unreadable(path: path, reason: "it has no \"control_url\" string (was the control plane disabled?)")
        }
        return url
    }
}
