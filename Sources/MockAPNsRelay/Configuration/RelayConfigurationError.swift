/// Why `APNsClientRelay(configuration:)` cannot make a relay from a ``RelayConfiguration``: one case per field, so a
/// front end can name its own flag or setting (`mockapns serve` names `--relay`, `--relay-key-file`, …) and
/// ``description`` names the field.
public enum RelayConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``RelayConfiguration/upstream`` is not a URL the client can reach (scheme, host), and why.
    case invalidUpstream(String)
    /// The key of ``RelayCredentials/resign(privateKeyPEM:keyID:teamID:)`` is not a P-256 `.p8` key, and why.
    case invalidSigningKey(String)
    /// The certificate of ``RelayCredentials/forward(clientCertificate:)`` is not a PEM certificate, and why.
    case invalidClientCertificate(String)
    /// ``RelayConfiguration/trustRootsPEM`` holds no readable CA certificate, and why.
    case invalidTrustRoots(String)
    /// ``RelayConfiguration/timeout`` is not more than zero.
    case invalidTimeout(Duration)
    /// ``RelayConfiguration/connections`` is less than 1.
    case invalidConnections(Int)
    /// ``RelayConfiguration/maxInFlight`` is less than 1.
    case invalidMaxInFlight(Int)
    /// The relay's event loop (its connections' thread) could not start, and why.
    case cannotStart(String)

    /// A sentence naming the field and what to change.
    public var description: String {
        switch self {
        case let .invalidUpstream(why):
            return "the relay's upstream cannot be used: \(why)"
        case let .invalidSigningKey(why):
            return "the relay's re-signing key (credentials .resign) cannot be used: \(why)"
        case let .invalidClientCertificate(why):
            return "the relay's client certificate (credentials .forward(clientCertificate:)) cannot be used: \(why)"
        case let .invalidTrustRoots(why):
            return "the relay's trustRootsPEM cannot be used: \(why)"
        case let .invalidTimeout(timeout):
            return "the relay's timeout must be more than 0 seconds, not \(timeout)"
        case let .invalidConnections(count):
            return "the relay's connections must be at least 1, not \(count)"
        case let .invalidMaxInFlight(count):
            return "the relay's maxInFlight must be at least 1, not \(count)"
        case let .cannotStart(why):
            return "the relay could not start: \(why)"
        }
    }
}
