import APNsClient
import APNsModel
import HTTP2
import TestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// Volume over a pool: every push accepted, every push recorded once.
final class ClientLoadTests: LeakCheckedTestCase {
    func testEveryPushOverFourConnectionsIsAcceptedAndRecordedOnce() async throws {
        let server = try await ClientTestServer.start { $0.mock.memoryLimit = 1_000 }
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try server.configuration(connections: 4))
        addTeardownBlock { await client.shutdown() }
        let total = LoadSize.requests(standard: 20_000, soak: 100_000)
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
    }

    /// With one event loop the client offers it as a task executor; tasks that prefer it run on the loop thread,
    /// send without a thread hop, and every push still arrives once.
    func testSendingTasksOnTheClientsLoop() async throws {
        let server = try await ClientTestServer.start { $0.mock.memoryLimit = 10_000 }
        addTeardownBlock { await server.stop() }
        let client = try APNsClient(configuration: try server.configuration(connections: 2, eventLoopThreads: 1))
        addTeardownBlock { await client.shutdown() }
        let executor = try XCTUnwrap(client.taskExecutor)
        let several = try APNsClient(configuration: try server.configuration(connections: 2, eventLoopThreads: 2))
        addTeardownBlock { await several.shutdown() }
        XCTAssertNil(several.taskExecutor, "no single loop to prefer")
        let push = APNsNotification.alert(bundleID: "com.example.app", body: "on the loop")
        let token = ClientTestServer.token
        let total = 5_000
        let workers = 50
        let (accepted, onLoop) = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for _ in 0..<workers {
                group.addTask(executorPreference: executor) {
                    var count = 0
                    var allOnLoop = true
                    for _ in 0..<(total / workers) {
                        allOnLoop = allOnLoop && (executor as? NIOLoopExecutor)?.inEventLoop == true
                        _ = try await client.send(push, deviceToken: token)
                        count += 1
                    }
                    return (count, allOnLoop)
                }
            }
            return try await group.reduce((0, true)) { ($0.0 + $1.0, $0.1 && $1.1) }
        }
        XCTAssertEqual(accepted, total)
        XCTAssertTrue(onLoop, "a task preferring the loop ran off it")
        XCTAssertEqual(server.recorder.lastSequence, UInt64(total))
    }
}
