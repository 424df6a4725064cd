/// The parser's working stack for the members of objects (or elements of arrays) still being parsed.
///
/// An array built by appending grows through several allocations (capacity 1, 2, 4, 8…) and ends up larger than
/// it needs; here each finished object or array is moved off the stack into one allocation of its final size.
/// Nested values share the stack: an inner object pops back to where it started before the outer one goes on.
///
/// Owned by one `JSONParser` run, which calls `release()` when done (also after a parse error, when the stack still
/// holds the members of the objects left open).
struct JSONScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// How many elements the stack holds.
    private(set) var count = 0

    /// Pushes `element` on top.
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base! + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from position `start` to the top off the stack, into an array of exactly that size.
    mutating func pop(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0, let base else { return [] }
        let popped = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        count = start
        return popped
    }

    /// Frees the stack (and whatever it still holds); the stack is empty and usable again afterwards.
    mutating func release() {
        guard let base else { return }
        base.deinitialize(count: count)
        base.deallocate()
        self.base = nil
        capacity = 0
        count = 0
    }

    private mutating func grow() {
        let newCapacity = max(16, capacity * 2)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
