import APNsModel
import Foundation
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording
import MockTestSupport

/// The embedded store behind the `RecordStore` interface: the recorder's ring answers filters, pages, ids and
/// apns-ids, counts, clears and prunes as a shared store would.
final class MemoryRecordStoreTests: LeakCheckedTestCase {
    private func record(token: String, status: Int = 200, reason: String? = nil, apnsID: String, receivedAt: Int64) -> RecordedRequest {
        var record = RecorderTests.sample(status: status, reason: reason, token: token)
        record.response = .init(status: status, reason: reason, apnsID: apnsID)
        record.receivedAtMillis = receivedAt
        return record
    }

    func testTheRingAnswersFiltersPagesIDsAndStatistics() async throws {
        let store: any RecordStore = MemoryRecordStore(recorder: try Recorder(memoryLimit: 10))
        try await store.append([
            record(token: "aa01", apnsID: "00000000-0000-4000-8000-000000000001", receivedAt: 1000),
            record(token: "aa02", status: 400, reason: "BadDeviceToken", apnsID: "00000000-0000-4000-8000-000000000002", receivedAt: 2000),
            record(token: "aa03", apnsID: "00000000-0000-4000-8000-00000000000A", receivedAt: 3000),
        ])
        XCTAssertEqual(store.label, "memory")
        let newest = try await store.records(matching: RecordFilter(limit: 2), before: nil)
        XCTAssertEqual(newest.map(\.seq), [2, 3])
        let older = try await store.records(matching: RecordFilter(limit: 2), before: 2)
        XCTAssertEqual(older.map(\.deviceToken), ["aa01"])
        let rejected = try await store.records(matching: RecordFilter(status: 400), before: nil)
        XCTAssertEqual(rejected.map(\.response.reason), ["BadDeviceToken"])
        let byAPNsID = try await store.record(RecordID(parsing: "00000000-0000-4000-8000-00000000000a"))
        XCTAssertEqual(byAPNsID?.deviceToken, "aa03")
        let bySeq = try await store.record(RecordID(parsing: "1"))
        XCTAssertEqual(bySeq?.deviceToken, "aa01")
        let statistics = try await store.statistics()
        XCTAssertEqual(statistics.total, 3)
        XCTAssertEqual(statistics.byReason, ["BadDeviceToken": 1])
    }

    func testPruneForgetsTheOldestByCountAndAgeAndClearForgetsTheRest() async throws {
        let recorder = try Recorder(memoryLimit: 10)
        let store = MemoryRecordStore(recorder: recorder)
        try await store.append((1...5).map { record(token: "aa0\($0)", apnsID: UUID().uuidString, receivedAt: Int64($0) * 1000) })
        let byCount = try await store.prune(RecordRetention(keepNewest: 4))
        XCTAssertEqual(byCount, 1)
        let byAge = try await store.prune(RecordRetention(receivedBeforeMillis: 3500))
        XCTAssertEqual(byAge, 2, "records received at 2 s and 3 s")
        let left = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(left.map(\.deviceToken), ["aa04", "aa05"])
        XCTAssertNil(recorder.record(seq: 3), "a pruned record is gone from memory")
        let nothing = try await store.prune(RecordRetention())
        XCTAssertEqual(nothing, 0)

        // The ring keeps working after a prune: new records land after the survivors.
        try await store.append([record(token: "aa06", apnsID: UUID().uuidString, receivedAt: 6000)])
        let after = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(after.map(\.seq), [4, 5, 6])
        try await store.clear()
        let cleared = try await store.records(matching: RecordFilter(), before: nil)
        XCTAssertEqual(cleared, [])
    }
}
