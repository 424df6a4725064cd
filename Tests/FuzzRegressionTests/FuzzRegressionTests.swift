import Foundation
import FuzzHarness
import XCTest

/// Replays every saved fuzz input through its target's logic: the crashes fuzzing found (`Fuzz/Regressions/`)
/// and the committed seeds (`Fuzz/Seeds/`). A fixed crash that comes back takes this test process down.
final class FuzzRegressionTests: XCTestCase {
    private static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    func testSavedInputsOfEveryTargetRunCleanly() throws {
        var replayed: [String: Int] = [:]
        for (name, run) in FuzzHarness.targets.sorted(by: { $0.key < $1.key }) {
            for folder in ["Regressions", "Seeds"] {
                for file in try inputs(in: Self.fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(name)) {
                    run(Array(try Data(contentsOf: file)))
                    replayed[name, default: 0] += 1
                }
            }
        }
        // Every target has saved inputs; an empty folder would make this test pass without running anything.
        for name in FuzzHarness.targets.keys {
            XCTAssertGreaterThan(replayed[name] ?? 0, 0, "no saved inputs for fuzz target \(name)")
        }
    }

    private func inputs(in folder: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
