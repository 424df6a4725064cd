import Logging
import ServiceLifecycle
import UnixSignals

/// The one `ServiceGroup` a mock's long-lived parts run in (`mockapns serve`, the test kit's `APNsMock`): given in
/// dependency order, started together, stopped in reverse order, each once the one after it has returned. A part
/// that fails or returns early shuts the whole group down gracefully, so whatever had started is stopped by
/// construction, and the failure is what `run()` throws.
///
/// The order a mock's parts go in: what must close last first (the store's connections), then the ``Mock`` (its
/// recording is flushed once nothing can add to it), what follows the recording (webhooks, the request log), the
/// relay, then the listeners, then what waits for the listeners (the ready file).
public enum MockServiceGroup {
    /// How long a graceful shutdown may take before the rest is cancelled: long enough for a slow store to take the
    /// last batch, short enough that a stuck part cannot hold the process for ever.
    public static let maximumGracefulShutdown: Duration = .seconds(60)

    /// A group of `services` that stops on `signals` (`serve`: SIGTERM and SIGINT).
    public static func make(_ services: [any Service], signals: [UnixSignal] = [], logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: services.map { service in
                .init(service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                      failureTerminationBehavior: .gracefullyShutdownGroup)
            },
            gracefulShutdownSignals: signals,
            logger: logger)
        configuration.maximumGracefulShutdownDuration = maximumGracefulShutdown
        configuration.maximumCancellationDuration = .seconds(5)
        return ServiceGroup(configuration: configuration)
    }
}
