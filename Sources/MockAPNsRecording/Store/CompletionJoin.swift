import Support

/// One `--record-sync` answer waiting on two writers (the record file and the record store): runs the answer's
/// action once both settled, with `true` only when both wrote the record.
final class CompletionJoin: Sendable {
    private let state: Locked<(left: Int, written: Bool)>
    private let action: WriteCompletion

    /// Waits for `parts` calls of `part` before running `action`.
    init(parts: Int, action: @escaping WriteCompletion) {
        state = Locked((parts, true))
        self.action = action
    }

    /// One writer's outcome; the last one runs the action.
    func part(_ written: Bool) {
        let finished: Bool? = state.withLock { state in
            state.left -= 1
            state.written = state.written && written
            return state.left == 0 ? state.written : nil
        }
        if let finished { action(finished) }
    }
}
