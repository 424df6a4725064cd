import Foundation

/// Paths inside this repository, found from this source file's location (no ../shared, no cwd assumptions).
public enum RepoPaths {
    public static let root: String = {
        // Tests/PeerSupport/RepoPaths.swift → the repository root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()
    public static var certs: String { root + "/certs" }
    public static var fixtures: String { root + "/Fixtures" }
    public static var peers: String { root + "/Tests/Peers" }
    public static var python: String {
        if let env = ProcessInfo.processInfo.environment["MOCKAPNS_PYTHON"], !env.isEmpty { return env }
        return root + "/.venv/bin/python"
    }
    public static func cert(_ name: String) -> String { certs + "/" + name }
    public static func text(_ name: String) throws -> String { try String(contentsOfFile: cert(name), encoding: .utf8) }
}
