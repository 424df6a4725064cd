import APNsModel
import DeviceSimulation
import Foundation
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// `LintMemo`: a repeated payload is linted once; another payload, even one in the same slot, never gets its findings.
final class LintMemoTests: LeakCheckedTestCase {
    private func key(_ body: String, pushType: String? = "alert", topic: String? = "com.example.app") -> LintMemo.Key {
        LintMemo.Key(body: Array(body.utf8), pushType: pushType, priority: "10", topic: topic, payloadBytes: body.utf8.count)
    }

    private func finding(_ message: String) -> [LintFinding] {
        [LintFinding(.apsMissing, message: message, path: "$")]
    }

    func testARepeatedPayloadIsLintedOnce() {
        let memo = LintMemo()
        var runs = 0
        let first = memo.findings(for: key(#"{"a":1}"#)) { runs += 1; return finding("one") }
        let again = memo.findings(for: key(#"{"a":1}"#)) { runs += 1; return finding("two") }
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(first, finding("one"))
        XCTAssertEqual(again, finding("one"))
    }

    func testHeadersArePartOfTheKey() {
        let memo = LintMemo()
        _ = memo.findings(for: key(#"{"a":1}"#)) { finding("alert") }
        XCTAssertEqual(memo.findings(for: key(#"{"a":1}"#, pushType: "background")) { finding("background") },
                       finding("background"))
        XCTAssertEqual(memo.findings(for: key(#"{"a":1}"#, topic: nil)) { finding("no topic") }, finding("no topic"))
    }

    func testPayloadsSharingASlotEachGetTheirOwnFindings() throws {
        // Two bodies of the same length whose keys land in the same slot: the second replaces the first.
        let first = key(#"{"n":"00000"}"#)
        var second: LintMemo.Key?
        for n in 1..<100_000 {
            let candidate = key(#"{"n":""# + String(format: "%05d", n) + #""}"#)
            if LintMemo.slot(for: candidate) == LintMemo.slot(for: first) { second = candidate; break }
        }
        let other = try XCTUnwrap(second, "no colliding body found")
        let memo = LintMemo()
        XCTAssertEqual(memo.findings(for: first) { finding("first") }, finding("first"))
        XCTAssertEqual(memo.findings(for: other) { finding("second") }, finding("second"))
        XCTAssertEqual(memo.findings(for: first) { finding("first again") }, finding("first again"))
    }

    func testTheHashReadsEveryByte() {
        let body = Array(#"{"aps":{"alert":"a fairly long alert text"},"id":"1234567"}"#.utf8)
        var seen = Set([LintMemo.hash(body)])
        for index in body.indices {
            var changed = body
            changed[index] ^= 0x01
            seen.insert(LintMemo.hash(changed))
        }
        XCTAssertEqual(seen.count, body.count + 1, "every one-byte change gives another hash")
    }
}
