import APNsTesting
import Foundation
import HTTP2
import PeerSupport
import XCTest

/// Starting and stopping a mock per test must not leak: after 100 rounds (each answering one push over a
/// real TLS connection) the process has as many file descriptors as before and no more threads.
///
/// Both counts are read once the process has settled: a closed client connection's socket goes away on its
/// loop a moment after `close()` returns. Threads: libdispatch's worker pool (which runs Swift concurrency)
/// grows and shrinks on its own, so the check asks for "no more than before" — a thread leaked per round
/// would show as 100. The sending side shares one `HTTP2Client` created before counting: this measures the mock.
final class LifecycleTests: LeakCheckedTestCase {
    func testHundredStartStopRoundsLeakNoDescriptorsOrThreads() async throws {
        let client = HTTP2Client()
        addTeardownBlock { await client.shutdown() }
        try await Self.round(client)   // warm up: lazy runtime threads, OpenSSL and resolver state
        let descriptorsBefore = try await ProcessProbe.settledOpenDescriptors()
        let threadsBefore = try XCTUnwrap(ProcessProbe.threads(), "the thread count could not be read")

        for _ in 0..<100 { try await Self.round(client) }

        let descriptorsAfter = try await ProcessProbe.settledOpenDescriptors()
        XCTAssertEqual(descriptorsAfter, descriptorsBefore, "file descriptors leaked")
        var threadsAfter = ProcessProbe.threads() ?? .max
        for _ in 0..<100 where threadsAfter > threadsBefore {   // let idle dispatch workers exit (≤ 10 s)
            try await Task.sleep(for: .milliseconds(100))
            threadsAfter = ProcessProbe.threads() ?? .max
        }
        XCTAssertLessThanOrEqual(threadsAfter, threadsBefore, "threads leaked")
    }

    private static func round(_ client: HTTP2Client) async throws {
        let mock = try await APNsMock.start()
        let sender = try await RawSender.connect(to: mock, on: client)
        let answer = try await sender.send(Payloads.shipped)
        XCTAssertEqual(answer.status, 200)
        await sender.close()
        await mock.stop()
    }
}
