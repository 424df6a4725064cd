import Foundation

/// Why the test mock could not start or a wait on it failed, in words a test author can act on.
public enum APNsMockError: Error, Sendable, CustomStringConvertible {
    /// A credentials file could not be read.
    case unreadableFile(String)
    /// The mock could not be configured or bound; the server's own explanation.
    case cannotStart(String)
    /// Fewer matching notifications than expected arrived in time; `received` is every record the mock holds.
    case timedOut(expected: Int, matched: Int, timeout: Duration, received: [ReceivedNotification])

    /// A sentence saying what happened and what to check.
    public var description: String {
        switch self {
        case .unreadableFile(let path):
            return "cannot read \(path): check the test credentials folder (or set MOCKAPNS_CERTS_DIR)"
        case .cannotStart(let why):
            return "the APNs mock could not start: \(why)"
        case .timedOut(let expected, let matched, let timeout, let received):
            var text = "waited \(timeout) for \(expected) notification(s) but \(matched) arrived"
            if received.isEmpty {
                text += "; the mock received nothing at all. Is the sender pointed at the mock's url and trusting its caCertificatePEM?"
            } else {
                text += ". The mock received:"
                for notification in received { text += "\n  " + notification.summary }
            }
            return text
        }
    }

    static func readText(_ path: String) throws(APNsMockError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path)
        }
        return text
    }
}
