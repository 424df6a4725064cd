import APNsCrypto
import Foundation
import MockAPNs
import MockAPNsHTTP2

/// A mock started in-process on a free port with the bundled test credentials.
public struct TestServer: Sendable {
    /// The running mock.
    public let server: APNsHTTP2Listener

    /// Starts a mock on a free port with the bundled credentials; `configure` adjusts the defaults (its `mock` and
    /// its `listener`; the tests' server runs no HTTP/1.1 listener or control plane of its own).
    public static func start(_ configure: (inout MockDeployment) -> Void = { _ in }) async throws -> TestServer {
        var configuration = MockDeployment()
        configuration.listener.port = 0
        configuration.mock.credentialsDirectory = RepoPaths.certs
        configure(&configuration)
        let server = try makeServer(configuration)
        do {
            try await server.start()
        } catch {
            server.mock.shutdown()
            throw error
        }
        return TestServer(server: server)
    }

    /// The mock and its HTTP/2 listener of `deployment` (not started).
    public static func makeServer(_ deployment: MockDeployment) throws -> APNsHTTP2Listener {
        let mock = try Mock(configuration: deployment.mock)
        do {
            return try APNsHTTP2Listener(mock: mock, configuration: deployment.listener)
        } catch {
            mock.shutdown()
            throw error
        }
    }

    /// The bound port.
    public var port: Int { server.port }
    /// The mock it serves.
    public var mock: Mock { server.mock }
    /// Every recorded request.
    public var recorder: Recorder { server.mock.recorder }
    /// `https://127.0.0.1:<port>`.
    public var url: String { "https://127.0.0.1:\(port)" }

    /// Shuts the mock down.
    public func stop() async {
        await server.shutdown(gracePeriod: .milliseconds(200))
        server.mock.shutdown()
    }
}
