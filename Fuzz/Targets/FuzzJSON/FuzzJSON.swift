import FuzzDriver
import FuzzHarness

/// The JSON fuzz target: libFuzzer on `JSONFuzzTarget`.
@main
enum FuzzJSON {
    static func main() {
        FuzzDriver.run(JSONFuzzTarget.run)
    }
}
