import APNsModel
import Foundation
import MockAPNs
@testable import MockAPNsPostgres
import PostgresSupport
import XCTest

/// The dashboard's search grammar on the shared store answers exactly what it answers on the memory ring: the same
/// records go into both, and every query, paged, returns the same records in the same order. The store narrows with
/// SQL and its indexes; this is what keeps that narrowing from ever dropping a match.
final class PostgresSearchTests: PostgresTestCase {
    private static let queries = [
        "", "topic:com.example.app", "topic:COM.EXAMPLE.APP", "token:ab0", "token:AB01", "type:background",
        "status:200", "status:4xx", "-status:200", "reason:baddevicetoken", "reason:Unregistered", "title:order",
        "title:ORDER -body:late", "body:late", "shipped", "\"order 4\"", "has:badge", "has:fault", "has:lint",
        "-topic:com.example.app title:ship", "token:ab -type:alert", "50%", "a_b", "com.example", "-has:badge status:2xx",
        "type:ALERT status:400", "zzz-no-such-word", "token:ab0f", "token:abff", "token:ab9", "token:f", "token:zz", "ab05", "AB0", "late", "badd", "explicitly-not-hex ab",
    ]

    /// 240 varied pushes: tokens, topics, push types, answers, string and dictionary alerts, badges and faults.
    private static func records() -> [RecordedRequest] {
        let topics = ["com.example.app", "com.example.other", "com.Example.App"]
        let titles = ["Order 42 shipped", "Your ORDER is late", "50% off today", "a_b test", "Hello"]
        let bodies = ["It is late", "On its way", "Ship ahoy", ""]
        let answers: [(Int, String?)] = [(200, nil), (200, nil), (400, "BadDeviceToken"), (410, "Unregistered"), (500, "InternalServerError")]
        return (0..<240).map { index in
            let token = String(format: "%@%02x%@", index % 3 == 0 ? "AB" : "ab", index, String(repeating: "0", count: 60))
            var aps: [JSONValue.JSONMember] = []
            if index % 7 == 0 {
                aps.append(.init("alert", .string(titles[index % titles.count])))
            } else if index % 5 != 0 {
                var alert: [JSONValue.JSONMember] = [.init("title", .string(titles[index % titles.count]))]
                let body = bodies[index % bodies.count]
                if !body.isEmpty { alert.append(.init("body", .string(body))) }
                aps.append(.init("alert", .object(alert)))
            } else {
                aps.append(.init("content-available", .integer(1)))
            }
            if index % 4 == 0 { aps.append(.init("badge", .integer(Int64(index)))) }
            let payload = JSONValue.object([.init("aps", .object(aps))])
            let body = Array(payload.jsonText().utf8)
            let (status, reason) = answers[index % answers.count]
            let pushType = index % 5 == 0 ? "background" : "alert"
            return RecordedRequest(
                seq: 0, receivedAtMillis: 1_795_442_400_000 + Int64(index) * 3_600_000, connectionID: 1, streamID: 1,
                remote: "127.0.0.1:50000", method: "POST", path: "/3/device/\(token)", deviceToken: token,
                headers: [HeaderField(name: "apns-topic", value: topics[index % topics.count]),
                          HeaderField(name: "apns-push-type", value: pushType)],
                body: body, payload: payload, payloadBytes: body.count,
                auth: RecordedRequest.Authentication(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001"),
                response: RecordedRequest.Response(status: status, reason: reason, apnsID: UUID().uuidString),
                faults: index % 11 == 0 ? ["status 500 InternalServerError"] : [], lint: [], durationMicros: 100)
        }
    }

    /// Every page of `query`, `limit` records at a time: the apns-ids in the order returned.
    private func pages(_ store: any RecordStore, _ query: SearchQuery, limit: Int) async throws -> [String] {
        var ids: [String] = []
        var before: UInt64?
        for _ in 0..<1_000 {
            let page = try await store.search(query, before: before, limit: limit)
            ids += page.records.compactMap(\.response.apnsID)
            guard let next = page.nextBefore else { return ids }
            before = next
        }
        XCTFail("\(query) never ran out of pages")
        return ids
    }

    func testEveryQueryFindsWhatTheMemoryRingFinds() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("search")
        let url = try PostgresStoreURL(parsing: cluster.url(database: database))
        // Two blocks a step, so a word search pages through blocks too.
        let postgres = PostgresRecordStore(url: url, instance: "a:1", searchBlocksPerStep: 2)
        try await postgres.open()
        let other = PostgresRecordStore(url: url, instance: "b:1")
        let records = Self.records()
        // Batches of 7 from two instances, so a word search crosses many blocks, over 10 days of partitions.
        for (index, start) in stride(from: 0, to: records.count, by: 7).enumerated() {
            try await (index % 2 == 0 ? postgres : other).append(Array(records[start..<min(start + 7, records.count)]))
        }
        await other.close()
        XCTAssertGreaterThanOrEqual(Int(try cluster.psql("SELECT count(*) FROM pg_inherits WHERE inhparent = 'mockapns_records'::regclass",
                                                         database: database)) ?? 0, 10, "one partition per day and one ahead")
        let memory = MemoryRecordStore(recorder: try Recorder(memoryLimit: 1_000))
        try await memory.append(records)

        var nonEmpty = 0
        for text in Self.queries {
            let query = try SearchQuery(parsing: text)
            let expected = try await pages(memory, query, limit: 1_000)
            if !expected.isEmpty { nonEmpty += 1 }
            for limit in [1_000, 7] {
                let found = try await pages(postgres, query, limit: limit)
                XCTAssertEqual(found, expected, "q=\(text) limit=\(limit)")
            }
        }
        XCTAssertGreaterThanOrEqual(nonEmpty, 30, "the queries should mostly find something")
        await postgres.close()
    }

    func testTheIndexesAnswerTheGrammar() async throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let database = try cluster.createDatabase("searchplan")
        let postgres = PostgresRecordStore(url: try PostgresStoreURL(parsing: cluster.url(database: database)), instance: "a:1")
        try await postgres.open()
        await postgres.close()
        XCTAssertEqual(try cluster.psql("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'", database: database), "1",
                       "the trigram extension backs word searches")
        let indexes = try cluster.psql("SELECT string_agg(indexname, ',' ORDER BY indexname) FROM pg_indexes WHERE tablename "
                                       + "IN ('mockapns_records', 'mockapns_search_blocks')", database: database)
        for name in ["mockapns_search_blocks_words", "mockapns_records_topic_folded", "mockapns_records_reason_folded"] {
            XCTAssertTrue(indexes.contains(name), "\(name) missing from \(indexes)")
        }
    }

    func testABlockHoldsEachWordOnceAndEveryPieceOfATermIsInsideOneOfThem() {
        var words = SearchBlockWords()
        words.add("com.example.app\nyour order 42 shipped")
        words.add("com.example.app\nyour order 43 shipped\nbaddevicetoken")
        words.add("ünïcode wörds stay whole")
        XCTAssertEqual(words.text.split(separator: "\n"), ["com", "example", "app", "your", "order", "42", "shipped", "43",
                                                             "baddevicetoken", "ünïcode", "wörds", "stay", "whole"])
        let query = try? SearchQuery(parsing: "title:\"der 4\" body:ship-ped -late 0f1e ünï% e.ap")
        XCTAssertEqual(StoreQueryBuilder.blockPieces(of: try XCTUnwrap(query)), ["der", "4", "ship", "ped", "ünï", "e", "ap"],
                       "negated and hex-only words narrow nothing; each piece of the rest must be in a word")
    }

    func testAWindowOfBlocksMergesOverlapsAndCoversEverythingAboveItsOldestBlock() {
        let window = SearchBlockWindow(blocks: [(first: 90, last: 120), (first: 100, last: 130), (first: 10, last: 20)], complete: false)
        XCTAssertEqual(window.ranges, [10...20, 90...130])
        XCTAssertEqual(window.floor, 20, "a block not read ends at or below the oldest last id read")
        XCTAssertNil(SearchBlockWindow(blocks: [(first: 1, last: 5)], complete: true).floor)
    }

    func testAHexPrefixIsARangeOfTheTokenIndex() {
        XCTAssertEqual(StoreQueryBuilder.hexPrefixRange("ab9")?.upper, "aba")
        XCTAssertEqual(StoreQueryBuilder.hexPrefixRange("abf")?.upper, "ac")
        XCTAssertEqual(StoreQueryBuilder.hexPrefixRange("0")?.upper, "1")
        XCTAssertNotNil(StoreQueryBuilder.hexPrefixRange("fff"))
        XCTAssertNil(StoreQueryBuilder.hexPrefixRange("fff")?.upper)
        XCTAssertNil(StoreQueryBuilder.hexPrefixRange("ab-"))
        XCTAssertNil(StoreQueryBuilder.hexPrefixRange(""))
    }
}
