import ServiceLifecycle

/// One of `serve`'s listeners in its group, failing with the sentence `serve` prints: what could not start, why,
/// and which flag moves it (``ListenerStartFailure``), rather than the transport's own words.
struct ServeListener: Service, CustomStringConvertible {
    private let listener: any Service
    /// The listener's name, for the group's log.
    let description: String
    /// The sentence for a failure of the listener's, or nil to say it as it is.
    private let explain: @Sendable (any Error) -> ListenerStartFailure?

    init(_ listener: any Service, name: String, explain: @escaping @Sendable (any Error) -> ListenerStartFailure?) {
        self.listener = listener
        description = name
        self.explain = explain
    }

    func run() async throws {
        do {
            try await listener.run()
        } catch {
            if let failure = explain(error) { throw ServeFailure(failure.description) }
            throw ServeFailure("cannot start \(description): \(error)")
        }
    }
}
