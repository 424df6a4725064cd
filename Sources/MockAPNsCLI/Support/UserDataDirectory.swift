import Foundation

/// Where `mockapns` keeps per-user files that must survive between runs: `$XDG_DATA_HOME/mockapns`, else
/// `~/.local/share/mockapns` (the XDG default, also used on macOS for one rule everywhere).
enum UserDataDirectory {
    /// The folder for `environment` (the process's by default); nil when neither XDG_DATA_HOME nor HOME is set.
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/mockapns" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/mockapns"
    }
}
