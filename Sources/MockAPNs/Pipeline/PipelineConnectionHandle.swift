import Support

/// One connection's state behind its own lock. A transport keeps it (`Pipeline.connectionOpened` returns it) and
/// hands it back with each request, so deciding a request never waits on a table that every loop shares; the
/// requests of one connection are decided one at a time, each seeing the state the previous one left.
package final class PipelineConnectionHandle: Sendable {
    let state: Locked<PipelineConnectionState>
    /// What the port the connection came in on stands for (``ListenerRole``).
    package let role: ListenerRole

    init(_ state: PipelineConnectionState, role: ListenerRole = .mock) {
        self.state = Locked(state)
        self.role = role
    }
}
