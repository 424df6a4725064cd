import Foundation

/// Unbuffered writes to standard output and error, and whether output goes to a terminal.
enum StandardStreams {
    /// Writes `text` to standard output.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to standard error.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// True when standard output is a terminal (then tables get colour).
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
