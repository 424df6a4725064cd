/// Why the FCM front door cannot start or take a request of the control API, in a sentence saying what to fix.
public enum FCMSetupError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A service-account file that is not one.
    case badServiceAccount(path: String, problem: String)
    /// A file that cannot be read or written.
    case file(path: String, problem: String)
    /// A project id Google would not accept.
    case badProjectID(String)
    /// An APNs key (`--fcm-apns-key`) that cannot sign.
    case badAPNsKey(String)
    /// A registration the control API refuses.
    case badRegistration(String)

    public var description: String {
        switch self {
        case .badServiceAccount(let path, let problem): "\(path) is not a service-account key file: \(problem)"
        case .file(let path, let problem): "\(path): \(problem)"
        case .badProjectID(let id):
            "\"\(id)\" is not a project id: 6 to 30 lowercase letters, digits and hyphens, starting with a letter"
        case .badAPNsKey(let problem): "--fcm-apns-key: \(problem)"
        case .badRegistration(let problem): problem
        }
    }
}
