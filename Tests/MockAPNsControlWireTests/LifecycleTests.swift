import MockAPNs
import MockAPNsControl
import TestSupport
import XCTest

/// start/stop: port 0, busy ports, double start, stop twice.
final class LifecycleTests: LeakCheckedTestCase {
    func testPortZeroBindsAFreePortAndStopReleasesIt() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        XCTAssertGreaterThan(harness.port, 0)
        XCTAssertEqual(harness.control.port, harness.port)
        await harness.stop()
        XCTAssertNil(harness.control.port)
        do {
            _ = try await harness.client.send("GET", "/healthz")
            XCTFail("still answering after stop()")
        } catch {}
        await harness.control.stop()   // twice is fine
    }

    func testABusyPortIsAClearError() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        let second = ControlServer(mock: harness.mock, configuration: ControlConfiguration(port: harness.port))
        do {
            _ = try await second.start()
            XCTFail("bound a busy port")
        } catch {
            guard case .couldNotListen(_, let port, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(port, harness.port)
            XCTAssertTrue(error.description.contains("Could not listen on 127.0.0.1:\(harness.port)"), error.description)
        }
    }

    func testStartingTwiceIsRefused() async throws {
        let harness = try await ControlTestHarness.start()
        addTeardownBlock { await harness.stop() }
        do {
            _ = try await harness.control.start()
            XCTFail("started twice")
        } catch {
            XCTAssertEqual(error, .alreadyStarted)
        }
    }
}
