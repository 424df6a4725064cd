import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HTTP2
import PeerSupport
import XCTest

/// Each poller (epoll, and the portable poll(2) one) reports readiness the same way: what is watched, changed and
/// removed, hang-ups, and wake-ups from another thread — on pipes, without the loop above it.
final class IOPollerTests: LeakCheckedTestCase {
    private func pipePair() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        addTeardownBlock { _ = close(ends[0]); _ = close(ends[1]) }
        return (ends[0], ends[1])
    }

    private func ready(_ poller: any IOPoller, timeout: Int32 = 0) -> [Int32: UInt32] {
        var seen: [Int32: UInt32] = [:]
        poller.wait(timeoutMilliseconds: timeout) { fd, events in seen[fd, default: 0] |= events }
        return seen
    }

    func testWatchedChangedAndRemovedDescriptors() throws {
        for driver in IODriver.allCases where driver.isAvailable {
            let poller = try driver.makePoller()
            defer { poller.close() }
            let a = pipePair(), b = pipePair()
            try poller.add(fd: a.read, events: IOEvents.input)
            try poller.add(fd: b.read, events: IOEvents.input)
            XCTAssertEqual(ready(poller), [:], "\(driver): nothing written yet")

            _ = write(a.write, "x", 1)
            XCTAssertEqual(ready(poller, timeout: 1000)[a.read].map { $0 & IOEvents.input }, IOEvents.input, "\(driver)")
            XCTAssertNil(ready(poller)[b.read], "\(driver): b has nothing")

            poller.modify(fd: a.read, events: 0)
            XCTAssertNil(ready(poller)[a.read], "\(driver): a is readable but not asked about")
            poller.modify(fd: a.read, events: IOEvents.input)
            XCTAssertNotNil(ready(poller)[a.read], "\(driver): asked again")

            poller.remove(fd: a.read)
            _ = write(b.write, "y", 1)
            XCTAssertEqual(Set(ready(poller, timeout: 1000).keys), [b.read], "\(driver): a removed, b ready")

            try poller.add(fd: a.write, events: IOEvents.output)
            XCTAssertEqual(ready(poller)[a.write].map { $0 & IOEvents.output }, IOEvents.output, "\(driver): a pipe has room")
        }
    }

    func testHangUpIsReported() throws {
        for driver in IODriver.allCases where driver.isAvailable {
            let poller = try driver.makePoller()
            defer { poller.close() }
            var ends: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&ends), 0)
            defer { _ = close(ends[0]) }
            try poller.add(fd: ends[0], events: IOEvents.input)
            _ = close(ends[1])
            let events = ready(poller, timeout: 1000)[ends[0]] ?? 0
            XCTAssertNotEqual(events & (IOEvents.hangup | IOEvents.input), 0, "\(driver): the writer went away")
        }
    }

    func testWakeFromAnotherThreadEndsAWait() throws {
        for driver in IODriver.allCases where driver.isAvailable {
            let poller = try driver.makePoller()
            defer { poller.close() }
            let woken = DispatchSemaphore(value: 0)
            let shared = SharedPoller(poller)
            let waiter = Thread {
                shared.poller.wait(timeoutMilliseconds: 30_000) { _, _ in }
                woken.signal()
            }
            waiter.start()
            Thread.sleep(forTimeInterval: 0.05)   // let it enter the wait (a wake before it is kept for the wait anyway)
            poller.wake()
            XCTAssertEqual(woken.wait(timeout: .now() + 10), .success, "\(driver): wake() ends the wait")
            XCTAssertEqual(ready(poller), [:], "\(driver): the wake-up itself is never reported")
        }
    }
}

/// Hands a poller to the waiting thread: `wake()` is the one call made from elsewhere, which every poller allows.
private final class SharedPoller: @unchecked Sendable {
    let poller: any IOPoller
    init(_ poller: any IOPoller) { self.poller = poller }
}
