import APNsModel
import ArgumentParser
import Foundation
import MockAPNsPostgres

/// Where the records come from: a live control plane (`--server`, `--ready-file`), a recording
/// written by `mockapns serve --record` (`--file`), or a shared store `mockapns serve --store` writes (`--store`).
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

    @Option(name: .long, help: ArgumentHelp("Read the shared PostgreSQL store that `mockapns serve --store` instances write (every instance's records; ids are store-wide).", valueName: "postgres://user@host/db"))
    var store: String?

    @Option(name: .customLong("store-namespace"), help: ArgumentHelp("With --store, the namespace to read (as given to `serve --store-namespace`; default none).", valueName: "name"))
    var storeNamespace: String?

    @Option(name: .customLong("control-token"), help: ArgumentHelp("Bearer token for a control plane started with --control-token (default: $MOCKAPNS_CONTROL_TOKEN).", valueName: "token"))
    var controlToken: String?

    /// The source these options name; at most one of `--server`, `--ready-file`, `--file`, `--store`.
    func resolve() throws(InspectError) -> InspectSource {
        let given = [server, readyFile, file, store].compactMap { $0 }
        guard given.count <= 1 else {
            throw .usage("Give at most one of --server, --ready-file, --file and --store.")
        }
        if let file { return .file(RecordFile(path: file)) }
        if let store {
            do {
                let url = try PostgresStoreURL(parsing: store)
                return .store(StoreSource(store: PostgresRecordStore(url: url, instance: "reader", namespace: storeNamespace ?? "",
                                                                     logger: StoreLogger.make())))
            } catch {
                throw .usage(error.description)
            }
        }
        if storeNamespace != nil { throw .usage("--store-namespace goes with --store.") }
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
        let object = try? JSONValue.parse(Array(data))
        guard let text = object?["control_url"]?.stringValue, let url = URL(string: text) else {
            throw .unreadable(path: path, reason: "it has no \"control_url\" string (was the control plane disabled?)")
        }
        return url
    }
}
