import FuzzDriver
import FuzzHarness

/// The Lint fuzz target: libFuzzer on `LintFuzzTarget`.
@main
enum FuzzLint {
    static func main() {
        FuzzDriver.run(LintFuzzTarget.run)
    }
}
