import Foundation
import XCTest

/// Locates the committed test credentials in `certs/` (../../certs from this test target).
enum TestCredentials {
    /// Absolute path of the repository's `certs/` folder.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // APNsCryptoTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("certs", isDirectory: true)

    /// Path of one file in `certs/`.
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Text of one file in `certs/`.
    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// One row of `certs/keys.json`.
    struct KeyEntry: Decodable, Equatable {
        let key_id: String
        let team_id: String
        let file: String
        let environment: String
        let topics: [String]?
    }

    /// Every row of `certs/keys.json`.
    static func keys() throws -> [KeyEntry] {
        let data = try Data(contentsOf: directory.appendingPathComponent("keys.json"))
        return try JSONDecoder().decode([KeyEntry].self, from: data)
    }
}
