import APNsClient
import Support

/// Counts outcomes of `mockapns send` from many tasks: accepted, rejected by reason, failed by error.
final class SendTally: Sendable {
    struct Counts {
        var accepted = 0
        var rejected: [String: Int] = [:]
        var failed: [String: Int] = [:]
        var firstAPNsID: String?
        var done: Int { accepted + rejected.values.reduce(0, +) + failed.values.reduce(0, +) }
    }

    private let counts = Locked(Counts())

    /// Records one outcome.
    func record(_ result: Result<APNsResponse, APNsClientError>) {
        counts.withLock { counts in
            switch result {
            case let .success(response):
                counts.accepted += 1
                if counts.firstAPNsID == nil { counts.firstAPNsID = response.apnsID }
            case let .failure(.rejected(status, reason, _, _)):
                counts.rejected["\(status) \(reason)", default: 0] += 1
            case let .failure(.unreachable(failure)):
                // One line per address and cause, not one per attempt count and elapsed time.
                counts.failed["could not connect to \(failure.address): \(failure.cause)", default: 0] += 1
            case let .failure(error):
                counts.failed[error.description, default: 0] += 1
            }
        }
    }

    /// A copy of the counts so far.
    var snapshot: Counts { counts.withLock { $0 } }
}
