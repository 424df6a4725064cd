import FuzzDriver
import FuzzHarness

/// The Decider fuzz target: libFuzzer on `DeciderFuzzTarget`.
@main
enum FuzzDecider {
    static func main() {
        FuzzDriver.run(DeciderFuzzTarget.run)
    }
}
