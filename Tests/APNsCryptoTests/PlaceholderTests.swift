import XCTest
@testable import APNsCrypto

final class APNsCryptoPlaceholderTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
