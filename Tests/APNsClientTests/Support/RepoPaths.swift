import Foundation

/// Paths inside this repository, found from this file's location.
enum RepoPaths {
    static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path
    }()
    static var certs: String { root + "/certs" }
    static func cert(_ name: String) -> String { certs + "/" + name }
    static func text(_ name: String) throws -> String { try String(contentsOfFile: cert(name), encoding: .utf8) }
}
