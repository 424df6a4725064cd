#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the record line being encoded, written through a raw pointer.
///
/// `JSONLineEncoder` writes a record as some sixty small pieces; appending each to an `Array` costs a uniqueness
/// check, a capacity check and a generic copy per piece. Here a piece is one capacity compare and a `memcpy` (or a
/// few stores), and the finished line goes to the encoder's output array in one piece.
///
/// The memory is held by a class, so a copy of the buffer shares it; `JSONLineEncoder` takes a buffer of its own
/// (`makeUnique`) before it writes, and a line lives only within one `encode` call.
struct JSONLineBuffer {
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base` and `storage.capacity`, kept here so that writes read no class field.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes the line holds.
    private(set) var count = 0

    init(capacity: Int = 4096) {
        storage = Storage(capacity: max(capacity, 64))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// Gives this buffer memory of its own when a copy shares it.
    mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        replaceStorage(capacity: capacity)
    }

    /// Empties the line (keeps the memory).
    mutating func removeAll() {
        count = 0
    }

    /// The line's bytes.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        if capacity - count < n { replaceStorage(capacity: max(capacity * 2, count + n)) }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        memcpy(base + count, source, bytes.count)
        count += bytes.count
    }

    /// Appends the text of a literal.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Lets `body` write at most `maximum` bytes at the end of the line; it returns how many it wrote.
    @inline(__always)
    mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        count += body(base + count)
    }

    private mutating func replaceStorage(capacity newCapacity: Int) {
        let new = Storage(capacity: newCapacity)
        memcpy(new.base, base, count)
        storage = new
        base = new.base
        capacity = new.capacity
    }
}
