import Foundation
@testable import HTTP2
import HTTP2TestSupport
import PeerSupport
import Support
import XCTest

/// The server connection driven in memory (``EmbeddedHTTP2Connection``): settings, answers, flow control,
/// back-pressure, GOAWAY, timeouts and the stream-limit gate, each as exact frames, with the clock moved by hand.
final class EmbeddedConnectionTests: LeakCheckedTestCase {
    private let settingsMaxConcurrentStreams: UInt16 = 3, settingsInitialWindowSize: UInt16 = 4

    func testServerAnnouncesItsSettingsAndAcknowledgesTheClients() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.maxConcurrentStreams = 42
        let peer = try EmbeddedPeer(configuration: configuration, handler: TestHandler())
        let frames = peer.frames()
        let settings = try XCTUnwrap(frames.first)
        XCTAssertEqual(settings.type, H2Frame.settings)
        XCTAssertEqual(settings.flags, 0)
        XCTAssertEqual(settings.settings.first { $0.0 == settingsMaxConcurrentStreams }?.1, 42)
        XCTAssertEqual(settings.settings.first { $0.0 == 6 }?.1, configuration.maxHeaderListSize)
        XCTAssertTrue(frames.contains { $0.type == H2Frame.settings && $0.flags == H2Frame.ack }, "the client's SETTINGS is acknowledged")
        XCTAssertFalse(peer.connection.isClosed)
    }

    func testRequestIsAnsweredWithHeadersAndBody() throws {
        let handler = TestHandler()
        let peer = try EmbeddedPeer(handler: handler)
        _ = peer.frames()
        peer.request(stream: 1, path: "/echo", body: Array("hello".utf8))
        let frames = peer.frames()
        let headers = try XCTUnwrap(frames.first { $0.type == H2Frame.headers && $0.streamID == 1 })
        let fields = peer.fields(headers)
        XCTAssertEqual(fields.first?.0, ":status")
        XCTAssertEqual(fields.first?.1, "200")
        XCTAssertEqual(fields.first { $0.0 == "x-path" }?.1, "/echo")
        XCTAssertEqual(fields.first { $0.0 == "x-body-length" }?.1, "5")
        let body = frames.filter { $0.type == H2Frame.data && $0.streamID == 1 }
        XCTAssertEqual(body.flatMap(\.payload), Array("hello".utf8))
        XCTAssertEqual(body.last?.flags, H2Frame.endStream)
        XCTAssertEqual(handler.requests.map(\.path), ["/echo"])
    }

    /// The client's windows bound what the server sends: 65 535 bytes, then exactly what WINDOW_UPDATEs allow.
    func testFlowControlHoldsDataUntilTheClientOpensItsWindow() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/big", method: "GET")
        var sent = peer.frames().filter { $0.type == H2Frame.data }.reduce(0) { $0 + $1.payload.count }
        XCTAssertEqual(sent, 65_535, "the initial windows are 65 535 bytes")
        peer.send(H2Wire.windowUpdate(stream: 0, increment: 100_000) + H2Wire.windowUpdate(stream: 1, increment: 10_000))
        sent += peer.frames().filter { $0.type == H2Frame.data }.reduce(0) { $0 + $1.payload.count }
        XCTAssertEqual(sent, 75_535, "the stream window allows 10 000 more")
        peer.send(H2Wire.windowUpdate(stream: 0, increment: 1 << 20) + H2Wire.windowUpdate(stream: 1, increment: 1 << 20))
        let rest = peer.frames().filter { $0.type == H2Frame.data }
        sent += rest.reduce(0) { $0 + $1.payload.count }
        XCTAssertEqual(sent, 1 << 20)
        XCTAssertEqual(rest.last?.flags, H2Frame.endStream)
    }

    /// An application whose consumer fell behind shuts the intake gate: the connection hands over the request it is
    /// reading and then reads nothing more (the rest waits, unread), and it goes on once the gate opens; nothing
    /// blocks, and every request is answered.
    func testAShutIntakeGateHoldsInputUntilItOpens() throws {
        var configuration = HTTP2ServerConfiguration()
        let gate = IntakeGate()
        configuration.intakeGate = gate
        let handler = TestHandler()
        let peer = try EmbeddedPeer(configuration: configuration, handler: handler)
        _ = peer.frames()
        gate.shut(by: .recordStore)
        peer.request(stream: 1, path: "/first")
        peer.request(stream: 3, path: "/second")
        peer.request(stream: 5, path: "/third")
        XCTAssertEqual(handler.requests.map(\.path), ["/first"], "one request is handed over, then input is held")
        XCTAssertGreaterThan(peer.connection.pendingInboundBytes, 0, "the rest waits unread")
        let answered = peer.frames().filter { $0.type == H2Frame.headers }.map(\.streamID)
        XCTAssertEqual(answered, [1], "the request read before the hold is answered")
        gate.open(by: .recordStore).run()
        let rest = peer.frames().filter { $0.type == H2Frame.headers }.map(\.streamID)
        XCTAssertEqual(handler.requests.map(\.path), ["/first", "/second", "/third"])
        XCTAssertEqual(rest, [3, 5])
        XCTAssertEqual(peer.connection.pendingInboundBytes, 0)
    }

    /// A client that does not read: the server stops taking its input once output reaches the high-water mark, holds
    /// no more than that, and answers everything once the client reads again.
    func testBackPressureStopsReadingFromAClientThatDoesNotRead() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.outputHighWaterMark = 64 * 1024
        let peer = try EmbeddedPeer(configuration: configuration, handler: TestHandler(),
                                    settings: [(settingsInitialWindowSize, 0x7FFF_FFFF)])
        peer.send(H2Wire.windowUpdate(stream: 0, increment: 0x7FFF_0000))
        _ = peer.frames()
        peer.connection.outboundRoom = 0
        // One request per read, as a client writing them one by one would arrive.
        for index in 0..<20 { peer.request(stream: UInt32(2 * index + 1), path: "/big", method: "GET") }
        XCTAssertGreaterThan(peer.connection.pendingInboundBytes, 0, "the server stopped reading")
        XCTAssertLessThanOrEqual(peer.connection.pendingOutboundBytes, configuration.outputHighWaterMark + 32 * 1024)
        peer.connection.outboundRoom = nil
        let frames = peer.frames()
        XCTAssertEqual(peer.connection.pendingInboundBytes, 0)
        let finished = Set(frames.filter { $0.type == H2Frame.data && $0.flags & H2Frame.endStream != 0 }.map(\.streamID))
        XCTAssertEqual(finished, Set((0..<20).map { UInt32(2 * $0 + 1) }))
        XCTAssertEqual(frames.filter { $0.type == H2Frame.data }.reduce(0) { $0 + $1.payload.count }, 20 << 20)
    }

    /// h2spec http2/5.1.1 #2: HEADERS opening a stream id below one the client already opened is a connection error
    /// PROTOCOL_ERROR (nghttp2 1.52 alone ignores it).
    func testHeadersOnALowerNewStreamIDIsAProtocolError() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 5, path: "/never")
        XCTAssertFalse(peer.frames().contains { $0.type == H2Frame.goAway })
        peer.request(stream: 3, path: "/echo")
        let goAway = try XCTUnwrap(peer.frames().first { $0.type == H2Frame.goAway })
        XCTAssertEqual(goAway.errorCode, 1, "PROTOCOL_ERROR")
        XCTAssertEqual(goAway.lastStreamID, 5)
        XCTAssertTrue(peer.connection.isClosed)
    }

    /// New streams above the highest opened so far are fine: only a never-opened lower id is an error.
    func testIncreasingStreamIDsAreNotAnError() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/echo")
        peer.request(stream: 7, path: "/echo")
        peer.request(stream: 9, path: "/echo")
        let frames = peer.frames()
        XCTAssertFalse(frames.contains { $0.type == H2Frame.goAway })
        XCTAssertEqual(Set(frames.filter { $0.type == H2Frame.headers }.map(\.streamID)), [1, 7, 9])
    }

    func testSilentPeerIsClosedAtThePrefaceTimeout() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.prefaceTimeout = .seconds(10)
        let peer = try EmbeddedPeer(configuration: configuration, handler: TestHandler(), preface: false)
        peer.connection.advanceTime(by: .seconds(9))
        XCTAssertFalse(peer.connection.isClosed, "not before the timeout")
        peer.connection.advanceTime(by: .seconds(2))
        let goAway = try XCTUnwrap(peer.frames().first { $0.type == H2Frame.goAway })
        XCTAssertEqual(goAway.errorCode, 0)
        XCTAssertEqual(goAway.debugData, configuration.timeoutGoAwayDebugData)
        XCTAssertTrue(peer.connection.isClosed)
    }

    func testIdleConnectionIsToldToGoAwayAndClosed() throws {
        var configuration = HTTP2ServerConfiguration()
        configuration.idleTimeout = .seconds(30)
        let peer = try EmbeddedPeer(configuration: configuration, handler: TestHandler())
        peer.request(stream: 1, path: "/echo")
        _ = peer.frames()
        peer.connection.advanceTime(by: .seconds(20))
        peer.send(H2Wire.ping())   // activity moves the idle deadline
        peer.connection.advanceTime(by: .seconds(20))
        XCTAssertFalse(peer.connection.isClosed)
        XCTAssertFalse(peer.frames().contains { $0.type == H2Frame.goAway })
        peer.connection.advanceTime(by: .seconds(12))
        let goAway = try XCTUnwrap(peer.frames().first { $0.type == H2Frame.goAway })
        XCTAssertEqual(goAway.errorCode, 0)
        XCTAssertEqual(goAway.lastStreamID, 1)
        XCTAssertTrue(peer.connection.isClosed)
    }

    /// A lower SETTINGS_MAX_CONCURRENT_STREAMS asked for while streams are open is announced once they have closed.
    func testLoweredStreamLimitWaitsForOpenStreams() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/never")
        peer.request(stream: 3, path: "/limit")
        let whileOpen = peer.frames()
        XCTAssertTrue(whileOpen.contains { $0.type == H2Frame.headers && $0.streamID == 3 }, "/limit is answered")
        XCTAssertFalse(whileOpen.contains { $0.type == H2Frame.settings && $0.flags == 0 }, "held while stream 1 is open")
        peer.send(H2Wire.frame(type: H2Frame.rstStream, stream: 1, payload: H2Wire.bigEndian(8)))
        let settings = try XCTUnwrap(peer.frames().first { $0.type == H2Frame.settings && $0.flags == 0 })
        XCTAssertEqual(settings.settings.map(\.0), [settingsMaxConcurrentStreams])
        XCTAssertEqual(settings.settings.first?.1, 7)
    }

    func testGoAwayFromTheHandlerFollowsItsAnswerAndCloses() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/goaway")
        let frames = peer.frames()
        let answerIndex = try XCTUnwrap(frames.lastIndex { $0.type == H2Frame.data && $0.streamID == 1 })
        let goAwayIndex = try XCTUnwrap(frames.firstIndex { $0.type == H2Frame.goAway })
        XCTAssertLessThan(answerIndex, goAwayIndex, "the 403 reaches the client before the GOAWAY")
        XCTAssertEqual(String(decoding: frames[goAwayIndex].debugData, as: UTF8.self), #"{"reason":"Shutdown"}"#)
        XCTAssertTrue(peer.connection.isClosed)
    }

    /// An answer given later from another thread is queued for the connection and sent when the test next drives it,
    /// and the connection may be driven from a different thread than the one that made it (one caller at a time, as an
    /// async test resumed elsewhere after an `await` would).
    func testAnswerFromAnotherThreadArrivesWhenDrivenFromAnother() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/delay")
        XCTAssertFalse(peer.frames().contains { $0.type == H2Frame.headers }, "not answered yet")
        let shared = SharedPeer(peer)
        let done = DispatchSemaphore(value: 0)
        let driver = Thread {
            _ = Poll.blockingUntil(timeout: .seconds(20), every: .milliseconds(20)) {
                shared.answer = shared.peer.frames().first { $0.type == H2Frame.headers && $0.streamID == 1 }
                return shared.answer != nil
            }
            done.signal()
        }
        driver.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        let fields = try peer.fields(XCTUnwrap(shared.answer, "the delayed answer never reached the client"))
        XCTAssertEqual(fields.first { $0.0 == "x-delayed" }?.1, "1")
    }

    /// Work scheduled on the connection's loop (``HTTP2ConnectionControl/schedule(after:_:)``, as the delay fault's
    /// answer is) runs by the loop's clock: not while the clock is short of the delay, at once when it reaches it.
    func testAScheduledAnswerWaitsForTheLoopsClock() throws {
        let peer = try EmbeddedPeer(handler: TestHandler())
        _ = peer.frames()
        peer.request(stream: 1, path: "/scheduled")
        XCTAssertFalse(peer.frames().contains { $0.type == H2Frame.headers }, "not answered yet")
        peer.connection.advanceTime(by: .milliseconds(1_999))
        XCTAssertFalse(peer.frames().contains { $0.type == H2Frame.headers }, "not before the delay has passed")
        peer.connection.advanceTime(by: .milliseconds(1))
        let answer = try XCTUnwrap(peer.frames().first { $0.type == H2Frame.headers && $0.streamID == 1 },
                                   "answered once the clock reaches the delay")
        let fields = peer.fields(answer)
        XCTAssertEqual(fields.first { $0.0 == ":status" }?.1, "200")
        XCTAssertEqual(fields.first { $0.0 == "x-scheduled" }?.1, "1")
    }

    func testBadPrefaceClosesAndPeerCloseEnds() throws {
        let bad = try EmbeddedPeer(handler: TestHandler(), preface: false)
        bad.send(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        XCTAssertTrue(bad.connection.isClosed)

        let handler = TestHandler()
        let peer = try EmbeddedPeer(handler: handler)
        peer.request(stream: 1, path: "/echo")
        peer.connection.endInbound()
        XCTAssertTrue(peer.connection.isClosed)
        XCTAssertEqual(handler.closed.count, 1)
    }
}

/// Hands the peer to the thread that drives it (one caller at a time: the test waits meanwhile).
private final class SharedPeer: @unchecked Sendable {
    let peer: EmbeddedPeer
    var answer: H2Frame?
    init(_ peer: EmbeddedPeer) { self.peer = peer }
}
