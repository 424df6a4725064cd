import Foundation
import ServiceLifecycle

/// The last of `serve`'s services: once every listener is bound (and the shared state loaded), it says where each
/// listens on stderr and writes the ready file; on shutdown it removes the file first, since the URLs in it are
/// about to stop answering. A ready file that cannot be written fails the group, which stops what started.
struct ServeReadiness: Service, CustomStringConvertible {
    /// What to wait for; returns the ready file and the lines to print before it is written.
    let waitForListeners: @Sendable () async throws -> (file: ReadyFile, lines: [String])
    /// Where to write it, if anywhere (`--ready-file`, `MOCKAPNS_READY_FILE`).
    let path: String?
    var description: String { "ready file" }

    func run() async throws {
        let ready: (file: ReadyFile, lines: [String])
        do {
            ready = try await cancelWhenGracefulShutdown { try await waitForListeners() }
        } catch is CancellationError {
            return   // stopped before every listener was up: nothing to announce
        } catch {
            // A listener that could not start fails the group with its own sentence; this waits for the shutdown.
            try? await gracefulShutdown()
            return
        }
        for line in ready.lines { FileHandle.standardError.write(Data("mockapns: \(line)\n".utf8)) }
        if let path {
            do {
                try ready.file.write(to: path)
            } catch {
                throw ServeFailure("cannot write the ready file \(path): \(error)")
            }
        }
        try? await gracefulShutdown()
        if let path { ReadyFile.remove(at: path) }
    }
}
