import MockAPNsRecording
/// ANSI styling that turns itself off when output is not a terminal (or `NO_COLOR` is set).
struct TerminalStyle: Sendable {
    /// Whether escapes are emitted.
    let enabled: Bool

    /// Colour on a terminal unless `NO_COLOR` is set.
    static func forStandardOutput(environment: [String: String]) -> TerminalStyle {
        TerminalStyle(enabled: StandardStreams.outputIsTerminal && environment["NO_COLOR"] == nil)
    }

    /// Bold text.
    func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text.
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// Green text.
    func green(_ text: String) -> String { wrap(text, "32") }
    /// Red text.
    func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow text.
    func yellow(_ text: String) -> String { wrap(text, "33") }

    /// `text` coloured by HTTP status: green for 200, red otherwise.
    func status(_ status: Int, _ text: String) -> String {
        status == 200 ? green(text) : red(text)
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension ExpectationReport.Marks {
    /// An expectation's verdict in `style`: green when it holds, red when not.
    init(_ style: TerminalStyle) {
        self.init(passed: { style.green($0) }, failed: { style.red($0) })
    }
}
