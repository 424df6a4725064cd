import FuzzDriver
import FuzzHarness

/// The Simulator fuzz target: libFuzzer on `SimulatorFuzzTarget`.
@main
enum FuzzSimulator {
    static func main() {
        FuzzDriver.run(SimulatorFuzzTarget.run)
    }
}
