/// What ``Pipeline/process(_:on:later:)`` gives a transport back: the answer now, or a promise that the `later`
/// completion it was handed will be called once with it.
///
/// Every transport (HTTP/2, HTTP/1.1, in memory) branches on this and nothing else, so a relayed push, a counted
/// fault shared through a store and a `--record-sync` write behave alike whichever protocol carried the request.
package enum PipelineAnswer: Sendable {
    /// The answer is ready: carry it out. The `later` completion is never called.
    case now(PipelineResponse)
    /// The answer comes through the `later` completion, from another thread: after the record is written
    /// (`--record-sync`), after the upstream answered (`--relay`), or after the store granted or refused a counted
    /// fault's firing.
    case later
}
