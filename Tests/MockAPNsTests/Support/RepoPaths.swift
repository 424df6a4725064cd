import Foundation

/// Paths inside this repository, found from the test file's own location (no ../shared, no cwd assumptions).
enum RepoPaths {
    static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }()
    static var certs: String { root + "/certs" }
    static var fixtures: String { root + "/Fixtures" }
    static var peers: String { root + "/Tests/Peers" }
    static var python: String {
        if let env = ProcessInfo.processInfo.environment["MOCKAPNS_PYTHON"], !env.isEmpty { return env }
        return root + "/.venv/bin/python"
    }
    static func cert(_ name: String) -> String { certs + "/" + name }
}
