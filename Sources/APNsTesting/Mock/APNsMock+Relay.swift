import MockAPNsRelay

/// A mock as another mock's upstream, the way `mockapns serve --relay` chains two processes: the relaying mock answers
/// each push it accepts with this one's answer, and both record it.
extension APNsMock {
    /// A relay to this mock: its ``url``, its ``caCertificatePEM`` as the only trusted root, and every push re-signed
    /// with its ``testKey`` (so certificate-authenticated senders are relayed too). Hand it to another mock's
    /// `APNsMockOptions.relay`; change what you need first, e.g. `credentials = .forward()` to send each sender's own
    /// token up instead.
    ///
    /// ```swift
    /// let upstream = try await APNsMock.start()
    /// var options = APNsMockOptions()
    /// options.relay = upstream.relayConfiguration
    /// let mock = try await APNsMock.start(options)   // senders point here; upstream answers
    /// ```
    public var relayConfiguration: RelayConfiguration {
        RelayConfiguration(
            upstream: .custom(url: url),
            credentials: .resign(privateKeyPEM: testKey.privateKeyPEM, keyID: testKey.keyID, teamID: testKey.teamID),
            trustRootsPEM: caCertificatePEM)
    }
}
