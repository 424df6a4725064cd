/// What one attempt of a push produced, and whether another attempt may help.
enum AttemptOutcome: Sendable {
    /// APNs accepted it.
    case accepted(APNsResponse)
    /// It failed; `retry` says whether to try again (after back-off).
    case failed(APNsClientError, retry: Bool)
}
