import APNsClient
import APNsModel
import TestSupport
import XCTest
@testable import MockAPNs

/// Volume over a pool: every push accepted, every push recorded once.
final class ClientLoadTests: XCTestCase {
    func testOneHundredThousandPushesOverFourConnections() async throws {
        let server = try ClientTestServer.start { $0.memoryLimit = 1_000 }
        let client = try APNsClient(configuration: try server.configuration(connections: 4))
        let total = 100_000
        let workers = 2_000
        let push = APNsNotification.alert(bundleID: "com.example.app", body: "load")
        let token = ClientTestServer.token
        let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var count = 0
                    var index = worker
                    while index < total {
                        _ = try await client.send(push, deviceToken: token)
                        count += 1
                        index += workers
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        XCTAssertEqual(accepted, total)
        XCTAssertEqual(server.recorder.lastSequence, UInt64(total))
        XCTAssertEqual(Set(server.recorder.records().map(\.response.status)), [200])
        XCTAssertEqual(client.openConnections, 4)
        await client.shutdown()
        await server.stop()
    }
}
