import ServiceLifecycle

extension APNsHTTP1Listener: Service {
    /// Listens until its group shuts down: binds (failing the run, and so the group, when it cannot), says so to
    /// ``waitUntilListening()``, then on graceful shutdown closes the listener and every connection.
    public func run() async throws {
        let port: Int
        do {
            port = try await start()
        } catch {
            listening.fail(error)
            throw error
        }
        listening.succeed(port)
        try? await gracefulShutdown()
        await stop()
    }

    /// Returns once the endpoint is bound (with its port), or throws why it could not bind.
    @discardableResult
    public func waitUntilListening() async throws -> Int {
        try await listening.value()
    }
}
