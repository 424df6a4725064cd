import ServiceLifecycle

/// A resource with nothing to run but something to close (the relay's upstream connections, the store's database
/// connections) as a `Service`: it waits for its group to shut down, then closes it. Its place in the group says
/// when: it closes after every service listed after it has stopped.
public struct ClosingService: Service, CustomStringConvertible {
    /// What it closes, for the group's log.
    public let description: String
    private let close: @Sendable () async -> Void

    /// A service named `name` that runs `close` when its group shuts down.
    public init(_ name: String, close: @escaping @Sendable () async -> Void) {
        description = name
        self.close = close
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await close()
    }
}
