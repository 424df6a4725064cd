import Logging
import ServiceLifecycle
import Support

/// A ``MockServiceGroup`` run by a task of its own, for an owner that goes on meanwhile (the test kit's `APNsMock`,
/// a test's server): ``stop()`` shuts it down gracefully and waits until every part has stopped.
public final class BackgroundServiceGroup: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, Never>
    /// How the group ended: nil until it has, then nil for a clean stop or the error that stopped it.
    private let ending = Readiness<String?>()

    /// Starts running `services` (in ``MockServiceGroup``'s order).
    public init(_ services: [any Service], logger: Logger) {
        let group = MockServiceGroup.make(services, logger: logger)
        self.group = group
        let ending = self.ending
        task = Task {
            do {
                try await group.run()
                ending.succeed(nil)
            } catch {
                ending.succeed("\(error)")
            }
        }
    }

    /// Waits until the group has ended by itself (a part failed): returns the failure's sentence, or nil when it
    /// stopped cleanly.
    public func ended() async -> String? {
        (try? await ending.value()) ?? nil
    }

    /// Stops every part, in reverse order, and waits until they have all stopped. Safe to call twice.
    public func stop() async {
        await group.triggerGracefulShutdown()
        await task.value
    }
}
