import APNsTesting
import Testing

/// The Swift Testing helpers record exactly the evaluator's message as an issue, and nothing when the
/// expectation holds. This is the one Swift Testing suite here: `withKnownIssue` is the only honest way to
/// observe an issue being recorded.
@Suite struct SwiftTestingAdapterTests {
    @Test func holdingExpectationsRecordNoIssue() async throws {
        try await APNsMock.withMock { mock in
            let sender = try await RawSender.connect(to: mock)
            try await sender.send(Payloads.shipped)
            await sender.close()
            let notification = try #require(mock.notifications.first)

            #expect(expectReceived(mock, .token(Tokens.first), .alertTitle("Your order shipped"), .accepted))
            #expect(expectReceived(mock, count: .exactly(1)))
            #expect(expectNotReceived(mock, .rejected(.unregistered)))
            #expect(expectNotification(notification, .customKey("orderID", "42"), .onDevice(.showsBanner, appState: .background)))
            #expect(expectNotifications([notification], meet: NotificationExpectation(.topic("com.example.shop"))))
        }
    }

    @Test func failuresRecordTheEvaluatorMessage() async throws {
        try await APNsMock.withMock { mock in
            let sender = try await RawSender.connect(to: mock)
            try await sender.send(Payloads.delayed)
            await sender.close()
            let expected = try #require(NotificationExpectation(.alertTitle("Your order shipped")).failureMessage(in: mock.notifications))

            withKnownIssue {
                #expect(!expectReceived(mock, .alertTitle("Your order shipped")))
            } matching: { issue in
                issue.comments.map(\.rawValue) == [expected]
            }
            withKnownIssue {
                #expect(!expectNotReceived(mock, .alertTitle("Order delayed")))
            } matching: { issue in
                issue.comments.first?.rawValue.hasPrefix("expect: FAILED — wanted no notifications with alert title \"Order delayed\"; 1 matched") == true
            }
        }
    }
}
