import HTTP2
import XCTest

/// Both pollers carry the same traffic in one process: epoll (Linux's default) and `poll(2)` with a wake-up pipe
/// (macOS's only one), each under a TLS server and our client, with many streams and connections at once; and so does
/// the server on SwiftNIO's loops (the `nio` prototype). The rest of the suite runs on whichever `MOCKAPNS_IO_DRIVER`
/// names (`make test` runs it under epoll and poll).
final class IODriverTests: ClientServerTestCase {
    func testEveryAvailableDriverServesManyConnectionsAndStreams() async throws {
        for driver in IODriver.allCases where driver.isAvailable {
            let (server, handler) = try startServer {
                $0.ioDriver = driver
                $0.runtime = .ownLoops
            }
            XCTAssertEqual(server.eventLoopGroup?.loops.map(\.driver), [driver, driver])
            try await serveManyConnectionsAndStreams(server, handler, driver: driver)
        }
    }

    /// The server on SwiftNIO's loops (`MOCKAPNS_IO_DRIVER=nio`), the client on ours.
    func testTheNIORuntimeServesManyConnectionsAndStreams() async throws {
        let (server, handler) = try startServer { $0.runtime = .nio }
        XCTAssertNil(server.eventLoopGroup)
        try await serveManyConnectionsAndStreams(server, handler, driver: .platformDefault)
    }

    private func serveManyConnectionsAndStreams(_ server: HTTP2Server, _ handler: TestHandler, driver: IODriver) async throws {
        let clientGroup = try EventLoopGroup(threads: 1, driver: driver)
        var connections: [HTTP2ClientConnection] = []
        for _ in 0..<4 {
            connections.append(try await HTTP2ClientConnection.connect(
                host: "localhost", port: server.localPort, tls: trustTestCA, on: clientGroup))
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
        XCTAssertEqual(statuses.map(\.0), Array(repeating: 200, count: 200), "\(driver)")
        XCTAssertEqual(Set(statuses.map(\.1)), Set(0..<200), "\(driver): every body echoed whole")
        XCTAssertEqual(handler.requests.count, 200, "\(driver)")
        for connection in connections { await connection.close() }
        await clientGroup.shutdown()
    }

    func testTheConfiguredDriverIsTheDefault() throws {
        XCTAssertEqual(HTTP2ServerConfiguration().ioDriver, IODriver.configured)
        let name = ProcessInfo.processInfo.environment["MOCKAPNS_IO_DRIVER"]
        XCTAssertEqual(IODriver.configured, name.flatMap(IODriver.init(rawValue:)) ?? .platformDefault)
    }
}
