import Foundation
import XCTest

/// Temporary folders for tests: the one place the test suites name the system's temporary directory.
public enum TestDirectory {
    /// Makes a new folder `<tmp>/<prefix>-<uuid>` and returns its path. Whoever asks removes it (a test case:
    /// ``XCTest/XCTestCase/makeTestDirectory(_:)``, which does so when the test ends); for helpers that are not a
    /// test case, such as a process wrapper that removes its folder when released. `short` keeps the unique part to 8
    /// characters, for a folder that holds a Unix socket (whose path may not pass 107 bytes).
    public static func make(_ prefix: String, short: Bool = false) throws -> String {
        let unique = short ? String(UUID().uuidString.prefix(8)) : UUID().uuidString
        let path = NSTemporaryDirectory() + "\(prefix)-\(unique)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

extension XCTestCase {
    /// A folder of this test's own (`<tmp>/<prefix>-<uuid>`), removed when the test ends (a teardown block), for the
    /// files a test's processes write: ready files, record files, payloads.
    public func makeTestDirectory(_ prefix: String) throws -> String {
        let path = try TestDirectory.make(prefix)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// The path of a file `name` (not created) in a new folder of this test's own (``makeTestDirectory(_:)``, removed
    /// with the file when the test ends), for a test that needs one file: a recording, a device file.
    public func makeTestDirectory(_ prefix: String, file name: String) throws -> String {
        try makeTestDirectory(prefix) + "/" + name
    }
}
