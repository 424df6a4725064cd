import MockAPNs
import MockAPNsHTTP2

/// The mock the HTTP/1.1 endpoint's tests put it in front of: h2c on a free port, any token signature trusted.
enum HTTP1TestServer {
    /// A server that is not started (the HTTP/1.1 endpoint needs only its pipeline); `churnLimit` sets the new
    /// connections per second per team that count as churn; `configure` adjusts the rest.
    static func makeServer(churnLimit: Int? = nil,
                           _ configure: (inout MockServerConfiguration) -> Void = { _ in }) throws -> MockAPNsServer {
        var configuration = MockServerConfiguration()
        configuration.port = 0
        configuration.tls = false
        configuration.trustBundledKeys = false
        configuration.trustAnySignature = true
        if let churnLimit { configuration.pipeline.newConnectionsPerSecondLimit = churnLimit }
        configure(&configuration)
        return try MockAPNsServer(configuration: configuration)
    }
}
