import HTTP2
import HTTP2TestSupport
import XCTest

/// Many connections and streams at once over TLS, with the server's connections and the client's spread over
/// several SwiftNIO loops each: every body comes back whole on its own stream.
final class ManyConnectionsTests: ClientServerTestCase {
    func testManyConnectionsAndStreamsOverSeveralLoops() async throws {
        let (server, handler) = try await startServer { $0.loopCount = 2 }
        let client = HTTP2Client(threads: 2)
        var connections: [HTTP2ClientConnection] = []
        for _ in 0..<4 {
            connections.append(try await client.connect(host: "localhost", port: server.localPort, tls: trustTestCA))
        }
        let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
            for index in 0..<200 {
                let connection = connections[index % connections.count]
                tasks.addTask {
                    let body = [UInt8](repeating: UInt8(index % 251), count: index * 37)
                    let response = try await connection.send(HTTP2ClientRequest(path: "/echo", body: body))
                    return (response.status, response.body == body ? index : -1)
                }
            }
            return try await tasks.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.map(\.0), Array(repeating: 200, count: 200))
        XCTAssertEqual(Set(statuses.map(\.1)), Set(0..<200), "every body echoed whole")
        XCTAssertEqual(handler.requests.count, 200)
        for connection in connections { await connection.close() }
        await client.shutdown()
    }
}
