import APNsModel
import DeviceSimulation
import ArgumentParser
import Foundation

/// `mockapns lint PAYLOAD`: what APNs would accept but the device would mishandle.
///
/// Exit status: 0 when no finding is an error, 1 when one is, 2 when the payload file or an option value
/// cannot be used.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a push payload for what APNs accepts but the device mishandles.",
        discussion: "Exits 1 when a finding is an error, 2 when the file or an option cannot be used."
    )

    @Argument(help: "The payload: a .json body or a Simulator .apns file.")
    var payload: String

    @OptionGroup var headers: PushHeaderOptions

    @Flag(help: "Print {\"findings\": [...]} as JSON.")
    var json = false

    func run() throws {
        let file: PayloadFile
        let resolved: PushHeaderOptions.Resolved
        do {
            file = try PayloadFile.load(path: payload)
            resolved = try headers.resolve()
        } catch {
            throw CommandFailure.exit(reporting: error)
        }
        let topic = resolved.topic ?? file.targetBundle
        let guess = resolved.pushType == nil ? LintPushTypeGuess.infer(payload: file.payload, topic: topic) : nil
        let findings = PayloadLinter.lint(
            payload: file.payload, pushType: resolved.pushType ?? guess?.pushType, priority: resolved.priority,
            topic: topic, payloadBytes: file.byteCount)
        if json {
            let list = try SimulationReport.value(of: findings)
            var members = [JSONValue.JSONMember("findings", list)]
            if let guess {
                members.append(JSONValue.JSONMember("inferred_push_type", .object([
                    JSONValue.JSONMember("push_type", .string(guess.pushType.rawValue)),
                    JSONValue.JSONMember("because", .string(guess.because)),
                ])))
            }
            print(JSONValue.object(members).prettyText())
        } else {
            if let guess { print(guess.note) }
            print(Self.table(findings, colour: Terminal.standardOutputIsTerminal))
        }
        if findings.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
    }

    /// The findings as an aligned table (severity, id, path, message), or a one-line all-clear.
    static func table(_ findings: [LintFinding], colour: Bool) -> String {
        guard !findings.isEmpty else { return "No findings." }
        let rows = [["SEVERITY", "ID", "PATH", "MESSAGE"]]
            + findings.map { [$0.severity.rawValue, $0.id, $0.path, $0.message] }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.enumerated().map { index, row in
            var cells = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            if colour, index > 0, let severity = LintFinding.Severity(rawValue: row[0]) {
                cells[0] = Terminal.paint(cells[0], severity)
            }
            return (cells + [row[3]]).joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// The headers `lint` and `simulate` take: `--push-type`, `--priority`, `--topic`.
///
/// Values are read as strings and checked in `run()`, so a bad value exits 2 like a bad file does.
struct PushHeaderOptions: ParsableArguments {
    @Option(help: "apns-push-type: \(PushType.allCases.map(\.rawValue).joined(separator: ", ")).")
    var pushType: String?

    @Option(help: "apns-priority: 10, 5 or 1.")
    var priority: String?

    @Option(help: "apns-topic (default: an .apns file's Simulator Target Bundle).")
    var topic: String?

    /// The parsed header values.
    struct Resolved {
        var pushType: PushType?
        var priority: Priority?
        var topic: String?
    }

    /// Parses the option values, or says which one is wrong.
    func resolve() throws(CommandFailure) -> Resolved {
        var resolved = Resolved(topic: topic)
        if let pushType {
            guard let type = PushType(rawValue: pushType.lowercased()) else {
                throw .usage(
                    "--push-type \(pushType) is not one of \(PushType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            resolved.pushType = type
        }
        if let priority {
            guard let value = Int(priority).flatMap(Priority.init(rawValue:)) else {
                throw .usage("--priority \(priority) is not 10, 5 or 1")
            }
            resolved.priority = value
        }
        return resolved
    }
}

/// A failure a command reports on standard error before exiting 2.
enum CommandFailure: Error, CustomStringConvertible {
    /// The payload file or an option value cannot be used.
    case usage(String)

    var description: String {
        switch self {
        case .usage(let message): return message
        }
    }

    /// Prints `error` to standard error and returns the exit status for a usage problem (2).
    static func exit(reporting error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        return ExitCode(2)
    }
}

/// Terminal helpers: whether output is a TTY, and ANSI colours for severities.
enum Terminal {
    /// Whether standard output is a terminal (colour is used only then).
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// `text` coloured for `severity`: red errors, yellow warnings, blue info.
    static func paint(_ text: String, _ severity: LintFinding.Severity) -> String {
        let code: String
        switch severity {
        case .error: code = "31"
        case .warning: code = "33"
        case .info: code = "34"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
