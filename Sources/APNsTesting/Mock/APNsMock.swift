import APNsModel
import MockAPNs
import Synchronization

/// An in-process APNs mock for a test: port 0, TLS with the bundled test CA, the bundled test key trusted,
/// development mode. Start one per test, point the sender at ``url`` (trusting ``caCertificatePEM`` and
/// signing with ``testKey``), send, then assert on ``notifications``.
///
/// ```swift
/// let mock = try await APNsMock.start()
/// defer { Task { await mock.stop() } }            // or: try await APNsMock.withMock { mock in … }
/// let client = try mock.makeClient()
/// try await client.send(notification, deviceToken: token)
/// XCTAssertReceived(mock, .topic("com.example.shop"), .alertTitle("Your order shipped"))
/// ```
///
/// Named `APNsMock` (not `MockAPNs`) because `MockAPNs` is the server module it wraps.
public final class APNsMock: Sendable {
    /// The running server, for anything this type does not wrap.
    public let server: MockAPNsServer
    /// The bundled test CA (PEM) that signed the mock's certificate: the sender's only trusted root.
    public let caCertificatePEM: String
    /// The signing key the mock trusts, for provider-token authentication.
    public let testKey: TestSigningKey
    private let stopped = Atomic<Bool>(false)

    private init(server: MockAPNsServer, caCertificatePEM: String, testKey: TestSigningKey) {
        self.server = server
        self.caCertificatePEM = caCertificatePEM
        self.testKey = testKey
    }

    /// Starts a mock with `options` on a free port; throws a sentence saying what to fix.
    public static func start(_ options: APNsMockOptions = APNsMockOptions()) async throws(APNsMockError) -> APNsMock {
        let credentials: BundledCredentials
        if let directory = options.credentialsDirectory {
            credentials = BundledCredentials(directory: directory)
        } else {
            do {
                credentials = try BundledCredentials.locate()
            } catch {
                throw .cannotStart(error.description)
            }
        }
        let caPEM = try APNsMockError.readText(credentials.caPath)
        let key = try TestSigningKey.bundled(in: credentials)
        let server: MockAPNsServer
        do {
            server = try MockAPNsServer(configuration: options.serverConfiguration(credentialsDirectory: credentials.directory))
            try server.start()
        } catch {
            throw .cannotStart("\(error)")
        }
        return APNsMock(server: server, caCertificatePEM: caPEM, testKey: key)
    }

    /// Starts a mock, runs `body` with it, and stops it however `body` ends.
    public static func withMock<Result>(
        _ options: APNsMockOptions = APNsMockOptions(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (APNsMock) async throws -> Result
    ) async throws -> Result {
        let mock = try await start(options)
        do {
            let result = try await body(mock)
            await mock.stop()
            return result
        } catch {
            await mock.stop()
            throw error
        }
    }

    /// Where senders connect, e.g. `https://127.0.0.1:40123`.
    public var url: String { server.url }
    /// The address the mock listens on, `127.0.0.1`.
    public var host: String { server.configuration.host }
    /// The port the mock is bound to.
    public var port: Int { server.port }

    /// Closes every connection (letting in-flight requests finish for up to `gracePeriod`) and frees the port
    /// and threads. Records stay readable afterwards.
    public func stop(gracePeriod: Duration = .milliseconds(200)) async {
        stopped.store(true, ordering: .relaxed)
        await server.shutdown(gracePeriod: gracePeriod)
    }

    /// A safety net for a forgotten ``stop(gracePeriod:)``: the port and threads are freed in the background.
    deinit {
        guard !stopped.load(ordering: .relaxed) else { return }
        let server = self.server
        Task { await server.shutdown(gracePeriod: .zero) }
    }
}
