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

        /// Writes the ID's text into the first 36 bytes of `buffer`.
        public func spell(into buffer: UnsafeMutableBufferPointer<UInt8>) {
            precondition(buffer.count >= Self.textLength)
            // A static string's bytes need no lazy initialisation, unlike a `static let` table.
            let digits: StaticString = "0123456789abcdef"
            let hex = digits.utf8Start
            var out = 0
            for half in 0..<2 {
                let value = half == 0 ? high : low
                for byteIndex in 0..<8 {
                    if out == 8 || out == 13 || out == 18 || out == 23 {
                        buffer[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    let byte = UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * byteIndex))
                    buffer[out] = hex[Int(byte >> 4)]
                    buffer[out + 1] = hex[Int(byte & 0xF)]
                    out += 2
                }
            }
        }
    }

    /// SplitMix64's step applied to `value`: a bijection, so distinct inputs give distinct outputs.
    private static func mix(_ value: UInt64) -> UInt64 {
        SplitMix64.finalize(value &+ 0x9E37_79B9_7F4A_7C15)
    }
}
