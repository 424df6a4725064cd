import XCTest
@testable import MockAPNsCLI
import TestSupport

/// The live stream's events from bytes in whatever pieces the connection delivers them.
final class ServerSentEventParserTests: LeakCheckedTestCase {
    func testEventsSplitAnywhereComeOutWhole() {
        let stream = Array("data: {\"seq\":1}\n\nevent: gap\r\ndata: {\"from\":2,\r\ndata: \"through\":3}\r\n\r\n: keep-alive\n\ndata:x\n".utf8)
        for cut in 0...stream.count {
            var parser = ServerSentEventParser()
            let events = parser.take(stream[..<cut]) + parser.take(stream[cut...])
            XCTAssertEqual(events, [ServerSentEvent(name: nil, data: "{\"seq\":1}"),
                                    ServerSentEvent(name: "gap", data: "{\"from\":2,\n\"through\":3}")],
                           "cut at \(cut)")
        }
    }

    func testAnEventIsYieldedOnlyOnceItsBlankLineArrives() {
        var parser = ServerSentEventParser()
        XCTAssertEqual(parser.take(Array("data: a\n".utf8)), [])
        XCTAssertEqual(parser.take(Array("\n".utf8)), [ServerSentEvent(name: nil, data: "a")])
        XCTAssertEqual(parser.take(Array("event: later\n\n".utf8)), [], "a name without data is no event")
    }
}
