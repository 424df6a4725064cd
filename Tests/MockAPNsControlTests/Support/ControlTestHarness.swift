import MockAPNs
import MockAPNsControl
import MockAPNsHTTP2
import XCTest
import TestSupport

/// A mock server (not listening for APNs traffic) with a control plane on a free loopback port.
struct ControlTestHarness {
    /// The mock whose state the control plane exposes.
    let server: MockAPNsServer
    /// The control plane under test.
    let control: ControlServer
    /// Its bound port.
    let port: Int
    /// A client pointed at it.
    var client: HTTPTestClient { HTTPTestClient(base: "http://127.0.0.1:\(port)") }

    /// A mock with plain-TCP, no-credential configuration; nothing but the control plane listens.
    static func makeServer() throws -> MockAPNsServer {
        var configuration = MockServerConfiguration()
        configuration.port = 0
        configuration.tls = false
        configuration.trustBundledKeys = false
        configuration.trustAnySignature = true
        return try MockAPNsServer(configuration: configuration)
    }

    /// Starts a control plane with `token` (nil = open).
    static func start(token: String? = nil) async throws -> ControlTestHarness {
        let server = try makeServer()
        let control = ControlServer(server: server, configuration: ControlConfiguration(host: "127.0.0.1", port: 0, controlToken: token))
        let port = try await control.start()
        return ControlTestHarness(server: server, control: control, port: port)
    }

    /// Stops the control plane and the mock.
    func stop() async {
        await control.stop()
        await server.shutdown(gracePeriod: .milliseconds(100))
    }
}
