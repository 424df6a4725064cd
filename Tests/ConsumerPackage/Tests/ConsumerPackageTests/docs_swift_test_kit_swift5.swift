import APNsTesting
import XCTest

// docs/swift-test-kit.md, Swift block 5, with its imports reduced to APNsTesting (written by
// `scripts/doc-snippets.py swift-consumer --write`: edit the document, not this file)

extension DocSnippetXCTestContext {
    func snippet_docs_swift_test_kit_swift5() async throws {
var options = APNsMockOptions()
options.http1 = true                       // off by default
let h1Mock = try await APNsMock.start(options)
let (h1URL, h1Port) = (h1Mock.http1URL!, h1Mock.http1Port!)   // "http://127.0.0.1:40124", 40124
_ = (h1URL, h1Port)
await h1Mock.stop()
    }
}
