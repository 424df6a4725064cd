import APNsModel
import Foundation
import Support
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// The recording contract for `--store`, with a store that refuses records until told otherwise: no success is
/// answered while a record is not stored, a refused batch is tried again until it is taken, and what could not be
/// stored by shutdown is counted lost and answered as such.
final class RecordStoreSinkTests: LeakCheckedTestCase {
    /// A ``MemoryRecordStore`` whose `append` throws while `refusing` is set, counting every call.
    private final class RefusingStore: RecordStore {
        struct Refused: Error {}

        let inner: MemoryRecordStore
        let refusing = Locked(true)
        let appendCalls = Locked(0)

        init() throws {
            inner = MemoryRecordStore(recorder: try Recorder(memoryLimit: 100))
        }

        var label: String { "refusing" }

        func append(_ batch: [RecordedRequest]) async throws {
            appendCalls.withLock { $0 += 1 }
            if refusing.withLock({ $0 }) { throw Refused() }
            try await inner.append(batch)
        }

        func records(matching filter: RecordFilter, before: UInt64?) async throws -> [RecordedRequest] {
            try await inner.records(matching: filter, before: before)
        }

        func record(_ id: RecordID) async throws -> RecordedRequest? { try await inner.record(id) }

        func search(_ query: SearchQuery, before: UInt64?, limit: Int) async throws -> SearchPage {
            try await inner.search(query, before: before, limit: limit)
        }

        func newestID() async throws -> UInt64 { try await inner.newestID() }

        func follow(matching filter: RecordFilter, after id: UInt64) -> AsyncThrowingStream<RecordStoreBatch, any Error> {
            inner.follow(matching: filter, after: id)
        }

        func statistics() async throws -> RecorderStatistics { try await inner.statistics() }

        func clear() async throws { try await inner.clear() }

        func prune(_ retention: RecordRetention) async throws -> Int { try await inner.prune(retention) }
    }

    func testARefusedBatchIsTriedAgainAndTheHeldAnswerGoesOutOnceItIsStored() throws {
        let store = try RefusingStore()
        let recorder = try Recorder(memoryLimit: 10, store: store, synchronousStore: true)
        defer { recorder.shutdown() }
        XCTAssertTrue(recorder.writesBeforeAnswering)
        let answered = Locked<[Bool]>([])
        recorder.appendNumbered(RecordedRequest.sample(), whenWritten: { written in answered.withLock { $0.append(written) } })
        let status = try XCTUnwrap(recorder.storeStatus)
        XCTAssertTrue(Poll.blockingUntil { status.isUnwritable }, "a refused batch marks the store unwritable")
        XCTAssertTrue(recorder.cannotRecord)
        XCTAssertTrue(Poll.blockingUntil { store.appendCalls.withLock { $0 } >= 3 }, "and is tried again")
        XCTAssertEqual(answered.withLock { $0 }, [], "no answer while the record is not stored")
        XCTAssertEqual(status.waiting, 1)

        store.refusing.withLock { $0 = false }
        XCTAssertTrue(Poll.blockingUntil { answered.withLock { $0 } == [true] }, "answered once stored")
        XCTAssertFalse(status.isUnwritable)
        XCTAssertEqual(status.failures, 1)
        XCTAssertEqual(status.lost, 0)
        XCTAssertEqual(store.inner.recorder.records().count, 1)
        recorder.flush()
        let progress = try XCTUnwrap(recorder.storeProgress)
        XCTAssertEqual(progress.batches, 1)
        XCTAssertEqual(progress.records, 1)
        XCTAssertEqual(progress.queued, 0)
        recorder.countStorePruned(4)
        XCTAssertEqual(recorder.storeProgress?.pruned, 4)
    }

    func testRecordsStillRefusedAtShutdownAreCountedLostAndAnsweredSo() throws {
        let store = try RefusingStore()
        let recorder = try Recorder(memoryLimit: 10, store: store, synchronousStore: true)
        let answered = Locked<[Bool]>([])
        for _ in 0..<3 {
            recorder.appendNumbered(RecordedRequest.sample(), whenWritten: { written in answered.withLock { $0.append(written) } })
        }
        let status = try XCTUnwrap(recorder.storeStatus)
        XCTAssertTrue(Poll.blockingUntil { status.isUnwritable })
        recorder.shutdown()
        XCTAssertEqual(answered.withLock { $0 }, [false, false, false], "every held answer goes out, as not recorded")
        XCTAssertEqual(status.lost, 3)
        XCTAssertEqual(status.waiting, 0)
        XCTAssertEqual(store.inner.recorder.records().count, 0)
    }
}
