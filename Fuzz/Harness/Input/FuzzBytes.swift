/// Reads a fuzz input as a sequence of typed choices (a small FuzzedDataProvider): every read takes bytes
/// from the front and never fails, so any input, even an empty one, maps to some structured case.
public struct FuzzBytes {
    private var rest: ArraySlice<UInt8>

    /// Reads `bytes` from the front.
    public init(_ bytes: [UInt8]) {
        rest = bytes[...]
    }

    /// Whether every byte has been taken.
    public var isEmpty: Bool { rest.isEmpty }

    /// One byte (0 once the input is used up).
    public mutating func byte() -> UInt8 {
        rest.popFirst() ?? 0
    }

    /// A choice among `count` options (`count` ≥ 1).
    public mutating func pick(_ count: Int) -> Int {
        Int(byte()) % max(count, 1)
    }

    /// One element of `options` (which must not be empty).
    public mutating func pick<T>(_ options: [T]) -> T {
        options[pick(options.count)]
    }

    /// Eight bytes as a signed integer (big-endian; missing bytes are zero).
    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }

    /// Up to `limit` bytes, the length chosen by the next byte.
    public mutating func chunk(upTo limit: Int) -> [UInt8] {
        let length = min(Int(byte()), limit, rest.count)
        defer { rest = rest.dropFirst(length) }
        return Array(rest.prefix(length))
    }

    /// Everything not yet taken.
    public mutating func remainder() -> [UInt8] {
        defer { rest = [] }
        return Array(rest)
    }
}
