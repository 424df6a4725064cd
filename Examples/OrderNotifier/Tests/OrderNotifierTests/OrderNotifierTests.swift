import APNsClient
import APNsTesting
import OrderNotifier
import XCTest

/// The "order shipped" sender against an in-process APNs mock, with XCTest.
final class OrderNotifierTests: XCTestCase {
    let phone = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    let oldTablet = "6b1f0e2d9c3a4b5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5"

    var mock: APNsMock!
    var client: APNsClient!
    var store: InMemoryTokenStore!
    var notifier: OrderNotifier!

    override func setUp() async throws {
        mock = try await APNsMock.start()                 // port 0, TLS, test CA and key, development
        client = try mock.makeClient()                    // an APNsClient pointed at the mock
        store = InMemoryTokenStore(["alice": [phone, oldTablet]])
        notifier = OrderNotifier(client: client, bundleID: "com.example.shop", tokens: store)
    }

    override func tearDown() async throws {
        await client.shutdown()
        await mock.stop()
    }

    func testShippedOrderReachesEveryDevice() async throws {
        let report = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS"))

        XCTAssertEqual(report.delivered, [phone, oldTablet])
        XCTAssertReceived(mock, .accepted, count: .exactly(2))
        XCTAssertReceived(mock, .token(phone), .topic("com.example.shop"), .pushType(.alert), .priority(.immediate),
                          .alertTitle("Your order shipped"), .alertBody("Order #42 is on its way with UPS."),
                          .customKey("orderID", "42"), .collapseID("order-42"))
    }

    func testWhatTheCustomerSees() async throws {
        _ = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS"))

        // App open: the app shows its own green shipping box instead of a system banner.
        XCTAssertReceived(mock, .onDevice(.presentsInApp(symbol: "shippingbox.fill", color: "#34C759", haptics: .success)))
        // App in the background or closed: a normal banner.
        XCTAssertReceived(mock, .onDevice(.showsBanner, appState: .background))
        XCTAssertReceived(mock, .onDevice(.showsBanner, appState: .forceQuit))
    }

    func testUnregisteredTokenIsForgotten() async throws {
        mock.unregister(token: oldTablet)                 // the app was deleted from the tablet

        let report = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS"))

        XCTAssertEqual(report.delivered, [phone])
        XCTAssertEqual(report.forgotten, [oldTablet])
        let remaining = await store.tokens(for: "alice")
        XCTAssertEqual(remaining, [phone])
        XCTAssertReceived(mock, .token(oldTablet), .rejected(.unregistered))

        // The next order does not even try the tablet.
        mock.clearNotifications()
        _ = await notifier.notifyShipped(Order(id: "43", customerID: "alice", carrier: "UPS"))
        XCTAssertNotReceived(mock, .token(oldTablet))
    }

    func testServiceUnavailableIsRetriedUntilDelivered() async throws {
        mock.failNext(2, reason: .serviceUnavailable, token: phone)   // APNs is briefly down for the phone

        let report = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS"))

        XCTAssertEqual(report.delivered, [phone, oldTablet])
        XCTAssertReceived(mock, .token(phone), .rejected(.serviceUnavailable), count: .exactly(2))
        XCTAssertReceived(mock, .token(phone), .accepted, count: .exactly(1))
    }

    func testPayloadOverTheLimitIsRejectedAndTheTokenKept() async throws {
        let essay = String(repeating: "Thank you for shopping with us! ", count: 200)   // ≈ 6.4 KB, limit 4 KB

        let report = await notifier.notifyShipped(Order(id: "42", customerID: "alice", carrier: "UPS", note: essay))

        XCTAssertEqual(report.delivered, [])
        XCTAssertEqual(report.failed[phone]?.reason?.reason, .payloadTooLarge)
        XCTAssertEqual(report.forgotten, [], "a too-large payload says nothing about the device")
        XCTAssertReceived(mock, .rejected(.payloadTooLarge), count: .exactly(2))
    }
}
