@testable import APNsModel
@testable import DeviceSimulation
import XCTest

/// `HeaderIndex` must answer exactly what the `String` rules answer: `HeaderRules.firstDuplicate(in:) != nil` and
/// `APNsRequest.value(lowercaseName:)` for each header the device rules read, on any header list.
final class HeaderIndexTests: XCTestCase {
    private static let read = ["apns-topic", "apns-push-type", "apns-id", "apns-expiration", "apns-priority", "apns-collapse-id"]

    private func check(_ names: [String], file: StaticString = #filePath, line: UInt = #line) {
        let headers = names.enumerated().map { HeaderField($0.element, "v\($0.offset)") }
        let index = HeaderIndex(headers)
        let request = APNsRequest(method: "POST", path: "/", headers: headers)
        XCTAssertEqual(index.hasDuplicate, HeaderRules.firstDuplicate(in: headers) != nil, "duplicate: \(names)", file: file, line: line)
        let found = [index.topic, index.pushType, index.apnsID, index.expiration, index.priority, index.collapseID]
        XCTAssertEqual(found, Self.read.map { request.value(lowercaseName: $0) }, "values: \(names)", file: file, line: line)
    }

    func testNamedCases() {
        check([])
        check(["apns-topic", "apns-push-type", "authorization", "apns-priority", "content-length"])
        check(["apns-topic", "user-agent", "apns-topic"])
        check(["authorization", "Authorization"])
        check(["content-type", "content-type"])
        check(["content-length", "content-length"])
        check(["apns-something-new", "apns-something-new"])
        check(["apns-something-new", "apns-something-old"])
        check([":path", ":path"])
        check(["user-agent", "user-agent", "accept", "accept"])
        check(["apns-collapse-id", "apns-collapse-id"])
        check(["apns-expiration", "apns-channel-id", "apns-expiration"])
        check(["apns-topix", "apns-topic"])           // same length as a known name
        check(["apns-", "apns", "a", "", ""])
        check(["apns-topic\u{301}", "apns-topic"])    // non-ASCII: the String rules decide
        check(["apns-topic", "apns-tópic", "apns-tópic"])
        check(["é", "apns-id", "apns-id"])
    }

    /// Random lists over names that are known, almost known, unknown, pseudo and non-ASCII, with repeats.
    func testRandomListsAgreeWithStringRules() {
        let pool = Self.read + ["authorization", "content-type", "content-length", "apns-channel-id", "apns-request-id",
                                "apns-unique-id", "apns-x", "apns-topid", "apns-push-typf", "user-agent", "accept-encoding",
                                ":authority", ":path", "content-lengtg", "authorizatioN", "cookie", "a", "", "c",
                                "apns-ïd", "ápns-id", "apns-id\u{301}", "x-apns-topic"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let count = Int.random(in: 0...12, using: &generator)
            check((0..<count).map { _ in pool.randomElement(using: &generator)! })
        }
    }
}
