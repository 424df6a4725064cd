import APNsClient
import APNsModel
import TestSupport
import XCTest
import MockAPNs

/// The HTTP/2 listener numbers its connections from its mock's sequence (``Mock/newConnectionID()``), as the
/// HTTP/1.1 listener and the FCM front door's uplink do, so no two connections in one mock's records share an id.
final class ListenerConnectionIDTests: LeakCheckedTestCase {
    func testAnHTTP2ConnectionTakesTheNextIdOfItsMock() async throws {
        let server = try await ClientTestServer.start()
        addTeardownBlock { await server.stop() }
        // Far past anything the process-wide counter of this suite's clients and servers reaches.
        var last: UInt64 = 0
        for _ in 0..<5_000 { last = server.mock.newConnectionID() }
        let client = try APNsClient(configuration: try server.configuration())
        addTeardownBlock { await client.shutdown() }
        _ = try await client.send(APNsNotification.alert(bundleID: "com.example.app", body: "id"),
                                  deviceToken: ClientTestServer.token)
        XCTAssertEqual(server.recorder.records().map(\.connectionID), [last + 1])
        XCTAssertEqual(server.mock.newConnectionID(), last + 2, "the listener drew one id from the mock")
    }
}
