import Synchronization

/// Whether some follower has asked for records' JSON lines. Until one has, nothing keeps, offers or drops lines, so
/// a recorder nobody follows pays nothing for the followers it might have.
final class LineSharing: Sendable {
    private let on = Atomic<Bool>(false)

    /// Whether lines are shared (a follower has read records).
    var isOn: Bool { on.load(ordering: .relaxed) }

    /// Turns sharing on (for good: followers come and go, and the cost of sharing with none is one check).
    func turnOn() {
        if !isOn { on.store(true, ordering: .relaxed) }
    }
}
