#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Logging
import ServiceLifecycle
import Support

/// Runs one Hummingbird application in the background: start returns the bound port, stop shuts it
/// down gracefully (and cancels what is still open after a short grace period).
///
/// Used by ``ControlServer``.
final class HTTPServerRunner: Sendable {
    private struct Running: Sendable {
        let group: ServiceGroup
        let task: Task<Void, Never>
        let port: Int
    }

    private let running = Locked<Running?>(nil)
    private let starting = Locked<Bool>(false)

    /// The bound port while running.
    var port: Int? { running.withLock { $0?.port } }

    /// Binds and starts serving `responder`; returns the bound port (useful when `port` is 0).
    func start<Responder: HTTPResponder>(
        responder: Responder, host: String, port: Int, logger: Logger
    ) async throws(ControlServerError) -> Int
    where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let claimed = starting.withLock { busy -> Bool in
            if busy { return false }
            busy = true
            return true
        }
        guard claimed, self.port == nil else {
            if claimed { starting.withLock { $0 = false } }
            throw .alreadyStarted
        }
        defer { starting.withLock { $0 = false } }

        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? port)
                portSink.finish()
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(2)
        groupConfiguration.maximumCancellationDuration = .seconds(2)
        let group = ServiceGroup(configuration: groupConfiguration)
        let failure = Locked<String?>(nil)
        let task = Task {
            do {
                try await group.run()
            } catch {
                failure.withLock { $0 = Self.sentence(for: error) }
            }
            portSink.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            await task.value
            throw .couldNotListen(host: host, port: port, reason: failure.withLock { $0 } ?? "the server stopped before it was listening")
        }
        running.withLock { $0 = Running(group: group, task: task, port: bound) }
        return bound
    }

    /// The error as a sentence. NIO's socket errors read "bind(descriptor:ptr:bytes:): Address already in use)
    /// (errno: 98)" (its own stray parenthesis): those become the system's text and number.
    static func sentence(for error: any Error) -> String {
        let text = String(describing: error)
        guard let match = text.firstMatch(of: /\(errno: (\d+)\)/), let code = Int32(match.1) else { return text }
        let call = text.prefix { $0 != "(" }
        return "\(call.isEmpty ? "" : call + ": ")\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Stops serving and waits until the socket is closed. Does nothing when not running.
    func stop() async {
        guard let current = running.withLock({ state -> Running? in
            defer { state = nil }
            return state
        }) else { return }
        await current.group.triggerGracefulShutdown()
        await current.task.value
    }
}
