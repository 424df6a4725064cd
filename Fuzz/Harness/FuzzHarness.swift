/// The fuzz targets' logic, one `run(_ bytes:)` per target, shared by the libFuzzer executables in `Fuzz/`
/// (one per target) and the regression replay in `Tests/FuzzRegressionTests` (every saved input, in `make test`).
public enum FuzzHarness {
    /// Every target by the name its corpus and regression folders use.
    public static let targets: [String: @Sendable ([UInt8]) -> Void] = [
        "json": JSONFuzzTarget.run,
        "jwt": JWTFuzzTarget.run,
        "decider": DeciderFuzzTarget.run,
        "lint": LintFuzzTarget.run,
        "simulator": SimulatorFuzzTarget.run,
        "http2": HTTP2FuzzTarget.run,
    ]
}
