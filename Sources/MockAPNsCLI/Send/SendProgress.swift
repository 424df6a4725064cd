import Foundation

/// A one-line progress bar on standard error (`[#####-----]  50%  5000/10000  12345/s`), redrawn in place.
/// Used only when standard error is a terminal.
struct SendProgress {
    /// Whether a bar should be drawn for `count` pushes.
    static func wanted(count: Int) -> Bool { count >= 1_000 && isatty(STDERR_FILENO) == 1 }

    /// Draws the bar for `done` of `total` after `elapsed` seconds.
    static func draw(done: Int, total: Int, elapsed: Double, final: Bool = false) {
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Int(Double(done) / elapsed) : 0
        let line = "\r[\(bar)] \(String(format: "%3d", total == 0 ? 100 : 100 * done / total))%  \(done)/\(total)  \(rate)/s"
        FileHandle.standardError.write(Data((line + (final ? "\n" : "")).utf8))
    }
}
