import APNsClient
import APNsTesting
import OrderNotifier
import Testing

/// The same sender with Swift Testing: `APNsMock.withMock` starts a mock per test and always stops it.
@Suite struct OrderNotifierSwiftTesting {
    let phone = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"

    @Test func shippedOrderIsAnAlertWithTheOrderNumber() async throws {
        try await APNsMock.withMock { mock in
            let client = try mock.makeClient()
            let notifier = OrderNotifier(client: client, bundleID: "com.example.shop",
                                         tokens: InMemoryTokenStore(["bob": [phone]]))

            let report = await notifier.notifyShipped(Order(id: "7", customerID: "bob", carrier: "DHL"))
            await client.shutdown()

            #expect(report.delivered == [phone])
            expectReceived(mock, .token(phone), .alertTitle("Your order shipped"), .customKey("orderID", "7"),
                           .onDevice(.showsBanner, appState: .background))
        }
    }

    @Test func expiredTokenIsForgotten() async throws {
        try await APNsMock.withMock { mock in
            mock.expire(token: phone)
            let client = try mock.makeClient()
            let store = InMemoryTokenStore(["bob": [phone]])
            let notifier = OrderNotifier(client: client, bundleID: "com.example.shop", tokens: store)

            let report = await notifier.notifyShipped(Order(id: "7", customerID: "bob", carrier: "DHL"))
            await client.shutdown()

            #expect(report.forgotten == [phone])
            #expect(await store.tokens(for: "bob").isEmpty)
            expectReceived(mock, .rejected(.expiredToken), count: .exactly(1))
        }
    }
}
