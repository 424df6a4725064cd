import APNsClient
import APNsCrypto
import HTTP2

extension APNsClientRelay {
    /// The relay `configuration` describes, checked now so a mistake is said at start rather than on the first push:
    /// limits, the upstream's URL, and the keys and certificates parsed (a client certificate's private key is read
    /// only by the TLS handshake). No connection opens before the first relayed push. Call ``shutdown()`` when done.
    public convenience init(configuration: RelayConfiguration) throws(RelayConfigurationError) {
        guard configuration.timeout > .zero else { throw .invalidTimeout(configuration.timeout) }
        guard configuration.connections >= 1 else { throw .invalidConnections(configuration.connections) }
        guard configuration.maxInFlight >= 1 else { throw .invalidMaxInFlight(configuration.maxInFlight) }
        do {
            _ = try configuration.upstream.address()
        } catch {
            throw .invalidUpstream(Self.detail(error))
        }
        if let roots = configuration.trustRootsPEM {
            do {
                _ = try CertificateTrustStore(caPEM: roots)
            } catch {
                throw .invalidTrustRoots(error.description)
            }
        }
        switch configuration.credentials {
        case let .resign(privateKeyPEM, keyID, teamID):
            do {
                _ = try P256PrivateKey(pemRepresentation: privateKeyPEM)
            } catch {
                throw .invalidSigningKey(error.description)
            }
            let client: APNsClient
            do {
                client = try Self.makeClient(configuration, .token(privateKeyPEM: privateKeyPEM, keyID: keyID, teamID: teamID),
                                             connections: configuration.connections)
            } catch {
                throw .cannotStart(Self.detail(error))
            }
            self.init(configuration: configuration, tokens: .resign(client), certificateClient: nil)
        case let .forward(certificate):
            if let certificate {
                do {
                    _ = try APNsClientCertificate(pemRepresentation: certificate.certificatePEM)
                } catch {
                    throw .invalidClientCertificate(error.description)
                }
            }
            var certificateClient: APNsClient?
            if let certificate {
                do {
                    certificateClient = try Self.makeClient(
                        configuration, .certificate(pem: certificate.certificatePEM, privateKeyPEM: certificate.privateKeyPEM),
                        connections: configuration.connections)
                } catch {
                    throw .cannotStart(Self.detail(error))
                }
            }
            // One event loop for every sender's connection: no thread per forwarded token.
            let loops = HTTP2ClientLoops(threads: 1)
            // A connection per sender token (APNs ties a token to its connection); `connections` bounds how many
            // senders' tokens are kept connected at once, with room for a few.
            let forwarding = ForwardingClients(limit: max(configuration.connections, 8), loops: loops) {
                try Self.makeClient(configuration, .perNotification, connections: 1, loops: loops)
            }
            self.init(configuration: configuration, tokens: .forward(forwarding), certificateClient: certificateClient)
        }
    }

    /// A client to the upstream with `authentication`: no retries (the sender owns them), the relay's timeout for the
    /// whole push, at most 10 seconds of it connecting, one event loop of its own unless `loops` are given.
    private static func makeClient(_ configuration: RelayConfiguration, _ authentication: APNsAuthentication, connections: Int,
                                   loops: HTTP2ClientLoops? = nil) throws(APNsClientError) -> APNsClient {
        let settings = APNsClientConfiguration(
            environment: configuration.upstream, authentication: authentication, trustRootsPEM: configuration.trustRootsPEM,
            connections: connections, requestTimeout: configuration.timeout, retryPolicy: .never,
            connectTimeout: min(configuration.timeout, .seconds(10)), eventLoopThreads: 1)
        return try APNsClient(configuration: settings, loops: loops)
    }

    /// What is wrong, without the client's "The client configuration is invalid" preamble.
    private static func detail(_ error: APNsClientError) -> String {
        if case let .invalidConfiguration(detail) = error { return detail }
        return error.description
    }
}
