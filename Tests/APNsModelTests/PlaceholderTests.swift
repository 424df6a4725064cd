import XCTest
@testable import APNsModel

final class APNsModelPlaceholderTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
