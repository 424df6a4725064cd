/// SplitMix64: a small, fast, seedable generator whose output step is a bijection on 64-bit values.
///
/// One implementation for the package's three uses: a fault plan's probabilities (seeded, so a run replays
/// exactly), the generated `apns-id`s (the step alone, applied to a counter: distinct inputs, distinct IDs) and
/// the seeded property tests. Not for anything that must be unpredictable.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`; the same seed gives the same sequence.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next value.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }

    /// A value in [0, 1).
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// The output step: a bijection on 64-bit values, so distinct inputs give distinct outputs.
    package static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
