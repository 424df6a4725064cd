import Synchronized

/// One connection's state behind its own lock. A transport keeps it (`Pipeline.connectionOpened` returns it) and
/// hands it back with each request, so deciding a request never waits on a table that every loop shares; the
/// requests of one connection are decided one at a time, each seeing the state the previous one left.
public final class PipelineConnectionHandle: Sendable {
    let state: Locked<PipelineConnectionState>

    init(_ state: PipelineConnectionState) {
        self.state = Locked(state)
    }
}
