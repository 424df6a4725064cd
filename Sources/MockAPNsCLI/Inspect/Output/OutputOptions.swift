import APNsModel
import ArgumentParser
import Foundation

/// `--json` and the table styling shared by the inspection commands.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of a table.")
    var json = false

    /// Colour only when standard output is a terminal and NO_COLOR is unset.
    var style: TerminalStyle {
        TerminalStyle.forStandardOutput(environment: ProcessInfo.processInfo.environment)
    }

    /// Prints `value` as one line of JSON.
    func printJSON(_ value: JSONValue) {
        StandardStreams.write(value.jsonText() + "\n")
    }
}
