/// A listener of `serve` that could not start, with the flag that changes its address: a second mock on the
/// same machine must be told which port to move, not only that one is taken.
struct ListenerStartFailure: Error, CustomStringConvertible {
    /// What failed: "the APNs endpoint", "the control plane", "the HTTP/1.1 endpoint".
    var listener: String
    /// The underlying error's sentence.
    var reason: String
    /// What to change, e.g. "--control-port (0 picks a free port) or --no-control".
    var remedy: String

    var description: String { "cannot start \(listener): \(reason) — change \(remedy)" }
}
