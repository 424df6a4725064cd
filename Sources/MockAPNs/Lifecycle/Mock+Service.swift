import ServiceLifecycle

extension Mock: Service {
    /// Runs until its group shuts down, then closes the recording: the record file and the store's writer are
    /// flushed and closed, and subscriptions (the live stream, webhooks, the request log) end once they have read
    /// what is left. First in its ``MockServiceGroup``, so it stops last, after every listener has stopped taking
    /// requests.
    public func run() async throws {
        try? await gracefulShutdown()
        await recorder.close()
    }
}
