import HTTP2
import HTTP2TestSupport
import XCTest

/// What happens on a client's loops once they have shut down: work that still arrives for them must not be lost.
final class ClientLoopsTests: XCTestCase {
    /// A task that prefers a loop (`APNsClient.taskExecutor`) and resumes after the loop stopped finishes on the global
    /// executor: NIO drops what is queued on a stopped loop, and the task would wait forever.
    func testATaskPreferringAStoppedLoopStillFinishes() async throws {
        let loops = HTTP2ClientLoops()
        let executor = try XCTUnwrap(loops.soleExecutor)
        let (wakeUp, wake) = AsyncStream<Int>.makeStream()
        let task = Task(executorPreference: executor) {
            var total = 0
            for await value in wakeUp { total += value }
            return total
        }
        wake.yield(1)
        await loops.shutdown()
        wake.yield(2)
        wake.finish()
        let total = await task.value
        XCTAssertEqual(total, 3)
    }
}
