import APNsTesting
import XCTest

// The fixture docs/swift-test-kit.md's XCTest fragments assume, as in Tests/DocSnippetTests (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit XCTEST_CONTEXT there, not this file)

/// The fixture the documents' XCTest fragments assume (the same as Examples/OrderNotifier's suite).
class DocSnippetXCTestContext: XCTestCase {
    let phone = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    let oldTablet = "6b1f0e2d9c3a4b5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5"
    var token: String { phone }
    let order = Order(id: "42", customerID: "alice", carrier: "UPS")

    var mock: APNsMock!
    var client: APNsClient!
    var store: InMemoryTokenStore!
    var notifier: OrderNotifier!

    override func setUp() async throws {
        mock = try await APNsMock.start()
        client = try mock.makeClient()
        store = InMemoryTokenStore(["alice": [phone, oldTablet]])
        notifier = OrderNotifier(client: client, bundleID: "com.example.shop", tokens: store)
    }

    override func tearDown() async throws {
        await client.shutdown()
        await mock.stop()
    }
}
