import APNsModel
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// Channel creation stops at APNs's per-app ceiling and at the mock's ceiling over all apps, with APNs's reason,
/// and a delete makes room again.
final class ChannelRegistryTests: LeakCheckedTestCase {
    private func create(_ store: ChannelRegistry, _ app: String) -> APNsReason? {
        switch store.create(bundleID: app, messageStoragePolicy: 1) {
        case .success: nil
        case .failure(let reason): reason
        }
    }

    func testPerAppAndTotalLimits() throws {
        let store = ChannelRegistry(limitPerApp: 3, limitInTotal: 5)
        for _ in 0..<3 { XCTAssertNil(create(store, "com.example.a")) }
        XCTAssertEqual(create(store, "com.example.a"), .cannotCreateChannelConfig, "fourth channel of one app")
        for _ in 0..<2 { XCTAssertNil(create(store, "com.example.b")) }
        XCTAssertEqual(create(store, "com.example.c"), .cannotCreateChannelConfig, "sixth channel over all apps")

        let first = try XCTUnwrap(store.all(bundleID: "com.example.a").first)
        XCTAssertTrue(store.delete(bundleID: "com.example.a", id: first))
        XCTAssertFalse(store.delete(bundleID: "com.example.a", id: first), "already deleted")
        XCTAssertNil(create(store, "com.example.c"), "a delete makes room")
        XCTAssertEqual(store.all(bundleID: "com.example.a").count, 2)
        XCTAssertEqual(store.all(bundleID: "com.example.c").count, 1)
        XCTAssertEqual(create(store, "com.example.d"), .cannotCreateChannelConfig)
    }

    func testDefaultsAreAPNsCeilingAndTheMocksOwn() {
        XCTAssertEqual(ChannelRegistry.limitPerApp, 10_000)
        XCTAssertEqual(ChannelRegistry.limitInTotal, 100_000)
    }
}
