import Support
import Synchronization

/// Makes `apns-id` / `apns-unique-id` values: lowercase canonical UUIDs (version 4 layout), unique for
/// the life of the process, without a system call per ID. The mock uses it for the IDs it returns, the client
/// for the `apns-id` it sends (kept across retries).
///
/// Foundation's `UUID()` on Linux opens and reads the kernel's random source on every call and spells the text
/// with `snprintf`, which at tens of thousands of requests a second costs more than the rest of a request. IDs only need to be unique and look like APNs's, not be
/// unpredictable: a counter run through SplitMix64's bijective mixer, keyed by a random seed drawn once,
/// never repeats and does not look sequential.
public enum APNsIDGenerator {
    private static let counter = Atomic<UInt64>(0)
    private static let seed: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    /// A fresh ID, e.g. `4f1c2b9e-7d3a-4c21-9a6e-0b5d8f2e1c47`.
    public static func next() -> String { nextID().text }

    /// A fresh ID as its 128 bits (spelled by `text`): records keep this form, which needs no allocation.
    public static func nextID() -> GeneratedID {
        let n = counter.add(1, ordering: .relaxed).newValue
        let high = mix(n ^ seed.0)
        var low = mix(n &+ seed.1)
        // Version 4 and RFC 4122 variant bits, as in a random UUID.
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let highV4 = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        return GeneratedID(high: highV4, low: low)
    }

    /// A generated ID: a UUID's two halves, spelled in lowercase canonical form.
    public struct GeneratedID: Sendable, Hashable {
        /// The first 64 bits (with the version nibble set).
        public let high: UInt64
        /// The last 64 bits (with the variant bits set).
        public let low: UInt64

        /// Length of the spelling.
        public static let textLength = 36

        /// The ID's text, e.g. `4f1c2b9e-7d3a-4c21-9a6e-0b5d8f2e1c47`.
        public var text: String {
            String(unsafeUninitializedCapacity: Self.textLength) { buffer in
                spell(into: buffer)
                return Self.textLength
            }
        }

        /// Writes the ID's text into the first 36 bytes of `buffer`: eight groups of four hex digits, each formed in
        /// one register, with dashes after the second, third, fourth and fifth (8-4-4-4-12).
        public func spell(into buffer: UnsafeMutableBufferPointer<UInt8>) {
            precondition(buffer.count >= Self.textLength)
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            raw.storeBytes(of: Self.hex4(high >> 48), toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(high >> 32), toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(high >> 16), toByteOffset: 9, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(high), toByteOffset: 14, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(low >> 48), toByteOffset: 19, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(low >> 32), toByteOffset: 24, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(low >> 16), toByteOffset: 28, as: UInt32.self)
            raw.storeBytes(of: Self.hex4(low), toByteOffset: 32, as: UInt32.self)
            buffer[8] = UInt8(ascii: "-")
            buffer[13] = UInt8(ascii: "-")
            buffer[18] = UInt8(ascii: "-")
            buffer[23] = UInt8(ascii: "-")
        }

        /// The low 16 bits of `value` as four lowercase hex digits, in memory order (most significant first): the
        /// nibbles are spread one per byte, then each becomes `'0' + n`, plus `'a' - '0' - 10` when `n > 9`
        /// (`(n + 6) >> 4` is 1 exactly then; no byte carries into the next).
        @inline(__always)
        static func hex4(_ value: UInt64) -> UInt32 {
            var x = UInt32(truncatingIfNeeded: value) & 0xFFFF
            x = (x | (x << 8)) & 0x00FF_00FF
            x = (x | (x << 4)) & 0x0F0F_0F0F
            let letters = ((x &+ 0x0606_0606) >> 4) & 0x0101_0101
            let ascii = x &+ 0x3030_3030 &+ letters &* 0x27
            return ascii.bigEndian
        }
    }

    /// SplitMix64's step applied to `value`: a bijection, so distinct inputs give distinct outputs.
    private static func mix(_ value: UInt64) -> UInt64 {
        SplitMix64.finalize(value &+ 0x9E37_79B9_7F4A_7C15)
    }
}
