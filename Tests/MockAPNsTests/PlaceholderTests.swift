import XCTest
@testable import MockAPNs

final class MockAPNsPlaceholderTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
