import APNsTesting
import Testing

/// `expectShown` and `expectNotShown` record the device's summary as the issue, and nothing when they hold.
@Suite struct VirtualDeviceSwiftTests {
    @Test func expectShownRecordsWhatTheDeviceShows() async throws {
        try await APNsMock.withMock { mock in
            let sender = try await RawSender.connect(to: mock)
            _ = try await sender.send(#"{"aps":{"alert":{"title":"Order 42 shipped"},"badge":1}}"#)
            await sender.close()
            let phone = mock.device(Tokens.first)
            #expect(phone.badge == 1)
            #expect(expectShown(phone, title: "Order 42 shipped"))
            #expect(expectNotShown(phone, title: "Order 43 shipped"))
            withKnownIssue {
                #expect(!expectShown(phone, title: "Order 43 shipped"))
            } matching: { issue in
                issue.comments.first?.rawValue == #"Expected the lock screen to show "Order 43 shipped", but "# + phone.summary
            }
        }
    }
}
