import MockAPNs

extension APNsMock {
    /// Every request the mock answered, accepted and rejected, oldest first.
    public var notifications: [ReceivedNotification] {
        mock.recorder.records().map(ReceivedNotification.init(record:))
    }

    /// The requests that match `filter` (token, topic, push type, status, reason…), oldest first.
    public func notifications(matching filter: RecordFilter) -> [ReceivedNotification] {
        mock.recorder.records(matching: filter).map(ReceivedNotification.init(record:))
    }

    /// Waits until at least `count` requests matching `filter` have been answered and returns them, oldest
    /// first. On timeout it throws ``APNsMockError/timedOut(expected:matched:timeout:received:)`` listing what
    /// did arrive.
    @discardableResult
    public func waitForNotifications(
        count: Int, matching filter: RecordFilter = RecordFilter(), timeout: Duration = .seconds(10)
    ) async throws(APNsMockError) -> [ReceivedNotification] {
        do {
            return try await mock.recorder.waitForRecords(count: count, matching: filter, timeout: timeout)
                .map(ReceivedNotification.init(record:))
        } catch {
            throw .timedOut(expected: count, matched: notifications(matching: filter).count, timeout: timeout,
                            received: notifications)
        }
    }

    /// Forgets the recorded requests (numbering goes on).
    public func clearNotifications() {
        mock.recorder.clear()
    }

    /// Forgets records, device states and faults: the mock behaves as if just started.
    public func reset() {
        mock.recorder.clear()
        mock.devices.removeAll()
        mock.faults.removeAll()
    }
}
