import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 4, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

extension DocSnippetXCTestContext {
    func snippet_docs_swift_test_kit_swift4() async throws {
// A user who allowed quiet (provisional) notifications: Notification Center only, no banner.
let provisional = DeviceProfile(state: .background, authorization: .provisional)
XCTAssertReceived(mock, .onDevice(.appearsInNotificationCenterOnly, device: provisional))
let simulation: Simulation = mock.notifications[0].simulate(on: provisional)   // what that device does, and why
XCTAssertEqual(simulation.presentation.kind, .list)

mock.setAppState(.background, token: phone)
mock.change(phone, .offline)                     // APNs keeps the next push (one per app) until it is back
let device = mock.device(phone)
XCTAssertShown(device, title: "Your order shipped")
let screen: DeviceScreen = device.screen
XCTAssertEqual(screen.appState, .background)
    }
}
