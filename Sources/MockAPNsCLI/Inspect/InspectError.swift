/// Why an inspection command could not do its job (exit status 2): bad arguments, an unreadable
/// recording, an unreachable or unhappy server.
enum InspectError: Error, CustomStringConvertible {
    /// Arguments that parse but make no sense together.
    case usage(String)
    /// A file that cannot be read or is not a recording.
    case unreadable(path: String, reason: String)
    /// An output file that cannot be written.
    case unwritable(path: String, reason: String)
    /// No control plane answered at `url`.
    case unreachable(url: String, reason: String)
    /// The control plane answered with an error.
    case server(url: String, status: Int, message: String)
    /// The asked-for record does not exist.
    case notFound(String)
    /// The `--store` database cannot be read (unreachable, login refused, schema too old or too new).
    case store(String)

    /// `error` from reading `source` as the inspection error it is, or else as `source` being unreadable.
    static func wrapping(_ error: any Error, source: String) -> InspectError {
        error as? InspectError ?? .unreadable(path: source, reason: "\(error)")
    }

    /// A sentence saying what went wrong and what to try.
    var description: String {
        switch self {
        case .usage(let message):
            return message
        case .unreadable(let path, let reason):
            return "Cannot read \(path): \(reason)."
        case .unwritable(let path, let reason):
            return "Cannot write \(path): \(reason)."
        case .unreachable(let url, let reason):
            return "No mockapns control plane answered at \(url) (\(reason)). Is `mockapns serve` running? "
                + "Point at it with --server URL or --ready-file PATH, or read a recording with --file rec.jsonl."
        case .server(let url, let status, let message):
            return "The control plane at \(url) answered \(status): \(message)"
        case .notFound(let message), .store(let message):
            return message
        }
    }
}
