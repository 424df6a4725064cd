import APNsTesting
import TestSupport
import XCTest

/// `mock.device(token)` after real pushes over HTTP/2: what the phone shows, what APNs stores while it is offline,
/// and `XCTAssertShown`'s message, captured (XCTExpectFailure does not exist on Linux) only while `capturing` is set.
final class VirtualDeviceXCTests: LeakCheckedTestCase {
    private var capturing = false
    private var captured: [String] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func alert(_ title: String, badge: Int) -> String {
        #"{"aps":{"alert":{"title":"\#(title)","body":"Track it in the app"},"badge":\#(badge)}}"#
    }

    func testAnOfflinePhoneGetsTheLatestOfACollapsedUpdateWhenItComesBack() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        let sender = try await RawSender.connect(to: mock)
        mock.setOnline(false, token: Tokens.first)
        _ = try await sender.send(alert("Order 42 packed", badge: 1), extraHeaders: [("apns-collapse-id", "order-42")])
        _ = try await sender.send(alert("Order 42 shipped", badge: 2), extraHeaders: [("apns-collapse-id", "order-42")])

        let away = mock.device(Tokens.first)
        XCTAssertFalse(away.isOnline)
        XCTAssertTrue(away.lockScreen.isEmpty, "nothing reaches an offline phone")
        XCTAssertEqual(away.stored.count, 1, "APNs keeps one push per app for an offline device")
        XCTAssertEqual(away.timeline.map(\.outcome), [.stored, .replaced, .stored])

        mock.setOnline(true, token: Tokens.first)
        let back = mock.device(Tokens.first)
        XCTAssertEqual(back.lockScreen.map(\.title), ["Order 42 shipped"])
        XCTAssertEqual(back.badge, 2)
        XCTAssertTrue(back.shows(title: "Order 42 shipped", body: "Track it in the app"))
        capturing = true
        XCTAssertShown(back, title: "Order 42 shipped")
        XCTAssertNotShown(back, title: "Order 42 packed")
        XCTAssertShown(back, title: "Order 42 packed")
        XCTAssertNotShown(back, title: "Order 42 shipped")
        capturing = false
        XCTAssertEqual(captured.count, 2, captured.joined(separator: "\n"))
        XCTAssertTrue(captured.first?.contains(#"Expected the lock screen to show "Order 42 packed", but device"#) == true,
                      captured.first ?? "")
        XCTAssertTrue(captured.first?.contains("Order 42 shipped — Track it in the app") == true, "it lists what is shown")
        XCTAssertTrue(captured.first?.contains("replaced") == true, "and what replaced the rest: \(captured.first ?? "")")
        XCTAssertTrue(captured.last?.contains(#"not to show "Order 42 shipped""#) == true, captured.last ?? "")

        await sender.close()
    }

    func testTheScreenCanBeReadForAnEarlierInstant() async throws {
        let mock = try await APNsMock.start()
        addTeardownBlock { await mock.stop() }
        let sender = try await RawSender.connect(to: mock)
        _ = try await sender.send(alert("Order 42 packed", badge: 1))
        let between = Date()
        try await Task.sleep(for: .milliseconds(20))
        _ = try await sender.send(alert("Order 42 shipped", badge: 2))
        XCTAssertEqual(mock.device(Tokens.first, at: between).lockScreen.map(\.title), ["Order 42 packed"])
        XCTAssertEqual(mock.device(Tokens.first).lockScreen.map(\.title), ["Order 42 shipped", "Order 42 packed"])
        mock.setAppState(.foreground, token: Tokens.first)
        XCTAssertEqual(mock.device(Tokens.first).screen.appState, .foreground)
        await sender.close()
    }
}
