@testable import HTTP2
import HTTP2TestSupport
import PeerSupport
import XCTest

/// The stream-limit gate without a socket: raising is immediate, lowering with streams open waits for them, and
/// only a change is ever submitted.
final class StreamLimitGateTests: LeakCheckedTestCase {
    func testRaisingIsImmediateAndLoweringWaitsForTheOpenStreams() {
        var gate = StreamLimitGate()
        gate.announcedInitially(1)
        XCTAssertEqual(gate.request(1_000, openStreams: 1), 1_000, "a raise goes out at once, streams open or not")
        XCTAssertNil(gate.request(1_000, openStreams: 0), "the same limit again is not submitted")
        XCTAssertNil(gate.request(1, openStreams: 3), "a lower limit waits while streams are open")
        XCTAssertEqual(gate.held, 1)
        XCTAssertEqual(gate.streamsDrained(), 1, "and goes out when the last one closes")
        XCTAssertNil(gate.streamsDrained(), "once")
        XCTAssertEqual(gate.announced, 1)
    }

    func testALaterRequestReplacesAHeldOne() {
        var gate = StreamLimitGate()
        gate.announcedInitially(1_000)
        XCTAssertNil(gate.request(1, openStreams: 2))
        XCTAssertNil(gate.request(1_000, openStreams: 2), "back to the announced limit: nothing to send, nothing held")
        XCTAssertNil(gate.held)
        XCTAssertNil(gate.streamsDrained())
        XCTAssertEqual(gate.request(5, openStreams: 0), 5, "lowering with no stream open is immediate")
    }
}
