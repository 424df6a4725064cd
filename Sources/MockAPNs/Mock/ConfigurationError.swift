/// A configuration the mock cannot start with, said so a user can fix it.
public enum ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// A file named on the command line could not be read.
    case unreadableFile(String)
    /// A file is not valid JSON.
    case invalidJSON(String, String)
    /// A device entry is malformed.
    case invalidDevice(String)
    /// A fault rule is malformed.
    case invalidFault(String)
    /// A `--key-file` value or key file is malformed.
    case invalidKey(String)
    /// A certificate, key or CA file is unusable.
    case invalidCertificate(String)
    /// The listener's ports cannot be set up as asked.
    case invalidListener(String)
    /// The bundled test credentials could not be found.
    case bundledCredentialsNotFound(searched: [String])

    public var description: String {
        switch self {
        case .unreadableFile(let path): return "cannot read \(path): check the path and permissions"
        case .invalidJSON(let path, let why): return "\(path) is not valid JSON: \(why)"
        case .invalidDevice(let why): return "invalid device: \(why)"
        case .invalidFault(let why): return "invalid fault rule: \(why)"
        case .invalidKey(let why): return "invalid signing key: \(why)"
        case .invalidCertificate(let why): return "invalid certificate: \(why)"
        case .invalidListener(let why): return "invalid listener: \(why)"
        case .bundledCredentialsNotFound(let searched):
            return "cannot find the bundled test credentials (certs/keys.json); looked in: \(searched.joined(separator: ", ")). "
                + "Pass --cert/--key/--ca and --key-file, or set MOCKAPNS_CERTS_DIR."
        }
    }
}
