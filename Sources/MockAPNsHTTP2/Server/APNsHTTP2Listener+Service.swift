import ServiceLifecycle

extension APNsHTTP2Listener: Service {
    /// Listens until its group shuts down: binds every port (a port in use fails the run, and so the group, with
    /// the transport's sentence), says so to ``waitUntilListening()``, then on graceful shutdown sends GOAWAY, lets
    /// in-flight streams finish for up to ``shutdownGracePeriod`` and closes.
    public func run() async throws {
        do {
            try await start()
        } catch {
            listening.fail(error)
            throw error
        }
        listening.succeed(port)
        try? await gracefulShutdown()
        await shutdown(gracePeriod: shutdownGracePeriod)
    }

    /// Returns once the listener is bound (with its port), or throws why it could not bind.
    @discardableResult
    public func waitUntilListening() async throws -> Int {
        try await listening.value()
    }
}
