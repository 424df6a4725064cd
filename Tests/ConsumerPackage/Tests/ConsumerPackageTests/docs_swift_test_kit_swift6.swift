import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 6, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

extension DocSnippetXCTestContext {
    func snippet_docs_swift_test_kit_swift6() async throws {
let upstream = try await APNsMock.start()       // stands in for Apple
upstream.unregister(token: oldTablet)           // the sender gets the upstream's 410 for it
var relaying = APNsMockOptions()
relaying.relay = upstream.relayConfiguration    // or: .credentials = .forward() to send the sender's own token up
let front = try await APNsMock.start(relaying)  // point the sender at front.url
_ = front.url
await front.stop()
await upstream.stop()
    }
}
