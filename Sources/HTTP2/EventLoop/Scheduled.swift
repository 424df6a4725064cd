import Synchronization

/// A handle to a task scheduled with `EventLoop.scheduleTask(in:_:)`; `cancel()` stops it from running.
public final class Scheduled: Sendable {
    private let cancelled = Atomic<Bool>(false)

    init() {}

    /// Prevents the task from running if it has not run yet. Callable from any thread.
    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// A min-heap of timers ordered by deadline (then by insertion order); lives on one loop thread.
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var handle: Scheduled
        var task: () -> Void
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0
    /// Size at which cancelled entries are swept out (so cancelled timers do not pile up).
    private var compactionThreshold = 1024

    var isEmpty: Bool { entries.isEmpty }
    var earliestDeadline: UInt64? { entries.first?.deadline }

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    mutating func insert(deadline: UInt64, handle: Scheduled, task: @escaping () -> Void) {
        if entries.count >= compactionThreshold { compact() }
        entries.append(Entry(deadline: deadline, sequence: nextSequence, handle: handle, task: task))
        nextSequence &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if Self.before(entries[child], entries[parent]) {
                entries.swapAt(child, parent)
                child = parent
            } else {
                break
            }
        }
    }

    /// Removes and returns the earliest entry if its deadline is at or before `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < entries.count && Self.before(entries[left], entries[smallest]) { smallest = left }
                if right < entries.count && Self.before(entries[right], entries[smallest]) { smallest = right }
                if smallest == parent { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    mutating func removeAll() { entries.removeAll() }

    /// Drops cancelled entries and restores the heap order. Amortized O(1) per insert.
    private mutating func compact() {
        entries.removeAll { $0.handle.isCancelled }
        entries.sort { Self.before($0, $1) }  // a sorted array is a valid min-heap
        compactionThreshold = max(1024, entries.count * 2)
    }
}
