import CNghttp2
@testable import HTTP2
import HTTP2TestSupport
import PeerSupport
import XCTest

/// The header block nghttp2 is handed: `:status` first (three digits, clamped), then every field as given, each
/// entry pointing at its own bytes, with the indexing policy's flags.
final class HeaderBlockBuilderTests: LeakCheckedTestCase {
    private func entries(_ nva: UnsafePointer<nghttp2_nv>, _ count: Int) -> [(String, String, UInt8)] {
        (0..<count).map { index in
            let entry = nva[index]
            return (String(decoding: UnsafeBufferPointer(start: entry.name, count: entry.namelen), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(start: entry.value, count: entry.valuelen), as: UTF8.self), entry.flags)
        }
    }

    func testAResponseBlockStartsWithItsStatus() {
        var builder = HeaderBlockBuilder()
        let fields = [HTTPHeaderField(name: "apns-id", value: "6F1D9B2C-0000-4000-8000-00000000AAAA"),
                      HTTPHeaderField(name: "content-type", value: "application/json")]
        let block = builder.withBlock(status: 410, fields: fields) { entries($0, $1) }
        XCTAssertEqual(block.map { "\($0.0)=\($0.1)" }, [":status=410", "apns-id=6F1D9B2C-0000-4000-8000-00000000AAAA",
                                                         "content-type=application/json"])
        XCTAssertEqual(builder.withBlock(status: 7, fields: []) { entries($0, $1) }.map(\.1), ["100"], "clamped to three digits")
        XCTAssertEqual(builder.withBlock(status: 12_345, fields: []) { entries($0, $1) }.map(\.1), ["999"])
    }

    func testARequestBlockIsItsFieldsAndTheBufferIsReused() {
        var builder = HeaderBlockBuilder()
        let long = HTTPHeaderField(name: "authorization", value: "bearer " + String(repeating: "x", count: 500))
        _ = builder.withBlock(fields: [long]) { entries($0, $1) }
        let block = builder.withBlock(fields: [HTTPHeaderField(name: ":method", value: "POST"),
                                               HTTPHeaderField(name: ":path", value: "/3/device/aa")]) { entries($0, $1) }
        XCTAssertEqual(block.map { "\($0.0)=\($0.1)" }, [":method=POST", ":path=/3/device/aa"], "a shorter block after a longer one")
    }
}
