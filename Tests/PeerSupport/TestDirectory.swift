import Foundation
import XCTest

extension XCTestCase {
    /// A folder of this test's own (`<tmp>/<prefix>-<uuid>`), removed when the test ends (a teardown block), for the
    /// files a test's processes write: ready files, record files, payloads.
    public func makeTestDirectory(_ prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
