import FuzzDriver
import FuzzHarness

/// The HTTP2 fuzz target: libFuzzer on `HTTP2FuzzTarget`.
@main
enum FuzzHTTP2 {
    static func main() {
        FuzzDriver.run(HTTP2FuzzTarget.run)
    }
}
