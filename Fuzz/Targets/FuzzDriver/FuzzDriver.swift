import CFuzzDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs libFuzzer on one target's logic.
///
/// Why the executables own `main` instead of taking libFuzzer's: in debug builds SwiftPM links an executable's
/// entry point under a renamed symbol (`<Target>_main`, for testable executables), which a `main`-less fuzz target
/// does not define. So each target has an ordinary `@main` that hands over to `LLVMFuzzerRunDriver`.
public enum FuzzDriver {
    nonisolated(unsafe) static var target: (([UInt8]) -> Void)?

    /// Fuzzes `target` with libFuzzer's command-line flags; does not return.
    public static func run(_ target: @escaping ([UInt8]) -> Void) -> Never {
        self.target = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzz))
    }
}

/// libFuzzer's per-input callback: the bytes of one input, given to the target chosen in `FuzzDriver.run`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzDriver.target?(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}
