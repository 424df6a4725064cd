import APNsClient

/// A real `APNsClient` for the mock: its URL, its test CA as the only trusted root, its test key.
extension APNsMock {
    /// The client configuration that reaches this mock: `.custom(url:)`, provider-token authentication with
    /// ``testKey``, and ``caCertificatePEM`` as the trusted root. Change what you need and make your own client.
    public var clientConfiguration: APNsClientConfiguration {
        APNsClientConfiguration(
            environment: .custom(url: url),
            authentication: .token(privateKeyPEM: testKey.privateKeyPEM, keyID: testKey.keyID, teamID: testKey.teamID),
            trustRootsPEM: caCertificatePEM)
    }

    /// An `APNsClient` configured for this mock (see ``clientConfiguration``); `configure` may adjust it first,
    /// e.g. `{ $0.retryPolicy = .never }`. Call `shutdown()` on it before ``stop(gracePeriod:)``.
    public func makeClient(
        _ configure: (inout APNsClientConfiguration) -> Void = { _ in }
    ) throws(APNsClientError) -> APNsClient {
        var configuration = clientConfiguration
        configure(&configuration)
        return try APNsClient(configuration: configuration)
    }
}
