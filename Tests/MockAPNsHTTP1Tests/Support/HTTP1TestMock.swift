import MockAPNs

/// The mock the HTTP/1.1 endpoint's tests put it in front of: no other listener, any token signature trusted.
enum HTTP1TestMock {
    /// A mock with no transport of its own (the HTTP/1.1 endpoint is the only one); `churnLimit` sets the new
    /// connections per second per team that count as churn; `configure` adjusts the rest.
    static func make(churnLimit: Int? = nil, _ configure: (inout MockConfiguration) -> Void = { _ in }) throws -> Mock {
        var configuration = MockConfiguration()
        configuration.trustBundledKeys = false
        configuration.trustAnySignature = true
        if let churnLimit { configuration.pipeline.newConnectionsPerSecondLimit = churnLimit }
        configure(&configuration)
        return try Mock(configuration: configuration)
    }
}
