import APNsModel
import DeviceSimulation

/// The payload linter on each request of a `RequestScript` (body, push type, priority, topic).
///
/// Beyond "does not crash": linting is deterministic, and every finding says where (a JSON path, `$` or a header
/// name) and what.
public enum LintFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        for request in RequestScript(bytes).requests {
            let findings = PayloadLinter.lint(request: request)
            precondition(findings == PayloadLinter.lint(request: request), "the linter is not deterministic")
            for finding in findings {
                precondition(!finding.path.isEmpty && !finding.message.isEmpty, "a finding without a place or message: \(finding)")
            }
        }
    }
}
