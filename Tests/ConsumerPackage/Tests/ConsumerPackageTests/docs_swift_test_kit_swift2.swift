import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 2, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

extension DocSnippetXCTestContext {
    func snippet_docs_swift_test_kit_swift2() async throws {
mock.unregister(token: oldTablet)            // 410 Unregistered: your sender should forget the token
mock.expire(token: token)                    // 410 ExpiredToken
mock.restrict(token: token, toTopics: ["com.example.other"])   // 400 DeviceTokenNotForTopic
mock.rateLimit(token: token, max: 2)         // 429 TooManyRequests after 2 pushes a minute
mock.failNext(2, reason: .serviceUnavailable) // the next 2 pushes get 503: your client should retry
mock.delayNext(by: .seconds(1)); mock.stallNext(); mock.dropConnectionOnNext(); mock.goAwayOnNext()
mock.addFault(FaultRule(topic: "com.example.shop", probability: 0.1, action: .status(500, reason: "InternalServerError")))
    }
}
