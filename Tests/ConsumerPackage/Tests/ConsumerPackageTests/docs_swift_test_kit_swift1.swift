import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 1, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

final class OrderNotifierTests: XCTestCase {
    let phone = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    var mock: APNsMock!
    var client: APNsClient!

    override func setUp() async throws {
        mock = try await APNsMock.start()      // port 0, TLS, test CA + key, development mode
        client = try mock.makeClient()         // an APNsClient pointed at the mock
    }

    override func tearDown() async throws {
        await client.shutdown()
        await mock.stop()
    }

    func testShippedOrderReachesTheCustomer() async throws {
        let notifier = OrderNotifier(client: client, bundleID: "com.example.shop",
                                     tokens: InMemoryTokenStore(["alice": [phone]]))

        _ = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS"))

        XCTAssertReceived(mock, .token(phone), .topic("com.example.shop"), .pushType(.alert),
                          .alertTitle("Your order shipped"), .customKey("orderID", "42"))
        // What the customer sees: the app's own green box when open, a banner otherwise.
        XCTAssertReceived(mock, .onDevice(.presentsInApp(symbol: "shippingbox.fill", color: "#34C759", haptics: .success)))
        XCTAssertReceived(mock, .onDevice(.showsBanner, appState: .background))
    }
}
