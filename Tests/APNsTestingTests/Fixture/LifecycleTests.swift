import APNsTesting
import Foundation
import HTTP2
import XCTest

/// Starting and stopping a mock per test must not leak: after 100 rounds (each answering one push over a
/// real TLS connection) the process has as many file descriptors and threads as before.
///
/// The sending side shares one `HTTP2Client` created before counting: this measures the mock, and a
/// client's own event loop is not the fixture's to free.
final class LifecycleTests: XCTestCase {
    func testHundredStartStopRoundsLeakNoDescriptorsOrThreads() async throws {
        let client = try HTTP2Client()
        try await Self.round(client)   // warm up: lazy runtime threads, OpenSSL and resolver state
        let descriptorsBefore = Self.count("/proc/self/fd")
        let threadsBefore = Self.count("/proc/self/task")

        for _ in 0..<100 { try await Self.round(client) }

        XCTAssertEqual(Self.count("/proc/self/fd"), descriptorsBefore, "file descriptors leaked")
        XCTAssertEqual(Self.count("/proc/self/task"), threadsBefore, "threads leaked")
        await client.shutdown()
    }

    private static func round(_ client: HTTP2Client) async throws {
        let mock = try await APNsMock.start()
        let sender = try await RawSender.connect(to: mock, on: client)
        let answer = try await sender.send(Payloads.shipped)
        XCTAssertEqual(answer.status, 200)
        await sender.close()
        await mock.stop()
    }

    private static func count(_ directory: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: directory).count) ?? -1
    }
}
