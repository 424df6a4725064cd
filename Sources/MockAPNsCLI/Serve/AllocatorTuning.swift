#if canImport(Glibc)
import Glibc
#endif

/// How `serve` sets glibc's allocator up before it starts: each thread's heap grows in steps of
/// ``topPadBytes`` and gives memory back once ``trimThresholdBytes`` are free at its top.
///
/// Why: every push allocates and frees the same shapes on the event loops and the record writer. With glibc's
/// defaults (a 128 KiB top pad, a trim threshold that follows the largest block freed), each thread's heap grew and
/// shrank all the time. `bench/server.sh a` counted 0.41 `mprotect` + `madvise` calls per push (nghttpd: none). With
/// these two settings the count falls to 0.09, and all system calls from 0.51 to 0.17 per push (bench/README, "The
/// answer path"; the CPU time it saves is within the benchmark machine's noise). The cost is memory: each heap keeps
/// up to the trim threshold of free pages. The top pad is address space that becomes resident only once it is used.
///
/// Only `serve`: a kit's in-process mock runs in the test's own process, whose allocator is not ours to tune. Elsewhere
/// than glibc nothing changes.
enum AllocatorTuning {
    /// How far a heap grows past what an allocation needs.
    static let topPadBytes: Int32 = 16 << 20
    /// How much free memory a heap keeps at its top before it returns it.
    static let trimThresholdBytes: Int32 = 8 << 20

    /// Applies the settings (once, as `serve` starts; they hold for every thread). An environment that sets
    /// `MALLOC_TOP_PAD_` or `MALLOC_TRIM_THRESHOLD_` keeps its own value.
    static func apply(environment: [String: String]) {
        #if canImport(Glibc)
        // `<malloc.h>` is not part of Swift's Glibc module: the function is looked up by name.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        if environment["MALLOC_TOP_PAD_"] == nil { _ = mallopt(mallocTopPad, topPadBytes) }
        if environment["MALLOC_TRIM_THRESHOLD_"] == nil { _ = mallopt(mallocTrimThreshold, trimThresholdBytes) }
        #endif
    }

    /// `M_TOP_PAD` and `M_TRIM_THRESHOLD` of glibc's `<malloc.h>`.
    private static let mallocTopPad: Int32 = -2
    private static let mallocTrimThreshold: Int32 = -1
}
