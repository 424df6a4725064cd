import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 3, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

extension DocSnippetXCTestContext {
func testServiceUnavailableIsRetriedUntilDelivered() async throws {
    mock.failNext(2, reason: .serviceUnavailable, token: phone)

    let report = await notifier.notifyShipped(order)

    XCTAssertEqual(report.delivered, [phone, oldTablet])
    XCTAssertReceived(mock, .token(phone), .rejected(.serviceUnavailable), count: .exactly(2))
    XCTAssertReceived(mock, .token(phone), .accepted, count: .exactly(1))
}
}
