import XCTest
@testable import HTTP2

final class HTTP2PlaceholderTests: XCTestCase {
    func testModuleLoads() { XCTAssertTrue(true) }
}
