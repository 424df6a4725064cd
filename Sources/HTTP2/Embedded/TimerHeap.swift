/// A min-heap of timers ordered by deadline (then by insertion order), for ``EmbeddedLoop``; lives on one thread.
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var task: () -> Void
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var earliestDeadline: UInt64? { entries.first?.deadline }

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
    }

    mutating func insert(deadline: UInt64, task: @escaping () -> Void) {
        entries.append(Entry(deadline: deadline, sequence: nextSequence, task: task))
        nextSequence &+= 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
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
}
