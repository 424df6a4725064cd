import FuzzDriver
import FuzzHarness

/// The JWT fuzz target: libFuzzer on `JWTFuzzTarget`.
@main
enum FuzzJWT {
    static func main() {
        FuzzDriver.run(JWTFuzzTarget.run)
    }
}
