import APNsModel
import MockAPNs
import MockAPNsControl
import PeerSupport
import XCTest

/// The streaming `list`, `show`, `stats`, `expect` and `export` give exactly what reading the whole recording into
/// memory gives (the way they read files before), on recordings that cross the reader's 1 MiB chunks: lines longer
/// than a chunk, CRLF and blank lines, a torn last line, and a last line without its newline.
final class InspectStreamingDifferentialTests: LeakCheckedTestCase {
    /// Filters as command-line options and as the reference applies them.
    private static let filters: [([String], RecordFilter)] = [
        ([], RecordFilter()),
        (["--status", "200"], RecordFilter(status: 200)),
        (["--topic", "com.example.other", "--push-type", "background"], RecordFilter(topic: "com.example.other", pushType: "background")),
        (["--token", String(format: "%064x", 3), "--reason", "Unregistered"], RecordFilter(token: String(format: "%064x", 3), reason: "Unregistered")),
        (["--limit", "5"], RecordFilter(limit: 5)),
        (["--limit", "0"], RecordFilter(limit: 0)),
        (["--status", "200", "--limit", "1900"], RecordFilter(status: 200, limit: 1900)),
        (["--since", "1500", "--limit", "7"], RecordFilter(since: 1500, limit: 7)),
        (["--since", "2990"], RecordFilter(since: 2990)),
    ]

    /// 3 000 records, three of them longer than a read chunk, a CRLF line, blank lines and `trailer` at the end.
    private func chunkyRecording(trailer: [UInt8]) throws -> String {
        var lines: [[UInt8]] = []
        for seq in UInt64(1)...3000 {
            let padded = [700, 1400, 2999].contains(seq)
            var line = StreamingRecording.record(seq: seq, bodyPadding: padded ? 1_200_000 : 0).jsonLine()
            line.removeLast()   // the newline
            if seq == 1000 { line.append(UInt8(ascii: "\r")) }
            lines.append(line)
            if seq % 500 == 0 { lines.append(Array(" \t".utf8)) }
            if seq == 2000 { lines.append([]) }
        }
        return try StreamingRecording.write(lines: lines, trailer: trailer)
    }

    /// A torn last line (a crash in the middle of a write) and a complete last line without its newline.
    private var recordings: [String] {
        get throws {
            var complete = StreamingRecording.record(seq: 3001).jsonLine()
            complete.removeLast()
            return [
                try chunkyRecording(trailer: Array("\n{\"seq\":3001,\"received_at\":\"2026-11".utf8)),
                try chunkyRecording(trailer: [UInt8(ascii: "\n")] + complete),
            ]
        }
    }

    func testListJSONAndExportMatchTheWholeFileReading() async throws {
        for file in try recordings {
            let all = try StreamingRecording.wholeFile(file)
            XCTAssertGreaterThanOrEqual(all.count, 3000)
            for (arguments, filter) in Self.filters {
                let expected = filter.apply(to: all)
                let list = try StreamingRecording.output(of: ["list", "--file", file, "--json"] + arguments)
                XCTAssertEqual(list.status, 0, "list --json \(arguments)")
                let document = JSONValue.object([.init("notifications", .array(expected.map { $0.jsonValue() }))])
                XCTAssertTrue(list.stdout == document.jsonText() + "\n", "list --json \(arguments) differs (\(list.stdout.utf8.count) bytes)")

                let export = try StreamingRecording.output(of: ["export", "--file", file] + arguments)
                XCTAssertEqual(export.status, 0, "export \(arguments)")
                XCTAssertTrue(export.stdout == expected.map { $0.jsonValue().jsonText() + "\n" }.joined(), "export \(arguments) differs (\(export.stdout.utf8.count) bytes)")

                let table = try StreamingRecording.output(of: ["list", "--file", file] + arguments)
                XCTAssertEqual(table.status, 0, "list \(arguments)")
                let seqs = table.stdout.split(separator: "\n").dropFirst().compactMap { UInt64($0.prefix { $0 != " " }) }
                XCTAssertEqual(seqs, expected.map(\.seq), "list \(arguments): rows")
            }
        }
    }

    func testHARExportHoldsEveryRecordInOrder() async throws {
        let file = try recordings[0]
        let all = try StreamingRecording.wholeFile(file)
        let result = try await InspectCLI.run(["export", "--file", file, "--format", "har", "--status", "400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        guard case .array(let entries)? = try result.json().value(at: ["log", "entries"]) else { return XCTFail("no entries") }
        XCTAssertEqual(entries.compactMap { $0.value(at: ["_mockapns", "seq"])?.integerValue }.map(UInt64.init),
                       all.filter { $0.response.status == 400 }.map(\.seq))
    }

    func testStatsMatchTheWholeFileReading() async throws {
        for file in try recordings {
            var statistics = RecorderStatistics()
            for record in try StreamingRecording.wholeFile(file) { statistics.count(record) }
            let result = try await InspectCLI.run(["stats", "--file", file, "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, statistics.jsonValue().jsonText() + "\n")
        }
    }

    func testShowFindsTheSameRecordBySeqAndByAPNsID() async throws {
        for file in try recordings {
            let all = try StreamingRecording.wholeFile(file)
            for seq: UInt64 in [1, 2, 699, 700, 701, 1000, 1400, 2000, 2999, 3000, all.last?.seq ?? 0] {
                let expected = try XCTUnwrap(all.first { $0.seq == seq })
                for id in [String(seq), try XCTUnwrap(expected.response.apnsID).uppercased()] {
                    let result = try await InspectCLI.run(["show", id, "--file", file, "--json"])
                    XCTAssertEqual(result.status, 0, result.stderr)
                    guard case .object(let members) = try result.json() else { return XCTFail(result.stdout) }
                    let recordPart = JSONValue.object(members.filter { $0.key != "jwt" && $0.key != "simulation" })
                    XCTAssertEqual(recordPart.jsonText(), expected.jsonValue().jsonText(), "show \(id)")
                }
            }
            let missing = try await InspectCLI.run(["show", "3002", "--file", file])
            XCTAssertEqual(missing.status, 2, missing.stdout)
            XCTAssertTrue(missing.stderr.contains("No record in \(file) has sequence number or apns-id '3002'"), missing.stderr)
        }
    }

    func testExpectCountsTheSameRecords() async throws {
        let cases: [([String], RecordFilter)] = [
            (["--status", "200", "--topic", "com.example.app"], RecordFilter(topic: "com.example.app", status: 200)),
            (["--reason", "BadDeviceToken", "--since", "2500"], RecordFilter(reason: "BadDeviceToken", since: 2500)),
            (["--push-type", "voip"], RecordFilter(pushType: "voip")),
        ]
        for file in try recordings {
            let all = try StreamingRecording.wholeFile(file)
            for (arguments, filter) in cases {
                let inScope = all.filter { record in filter.since.map { record.seq > $0 } ?? true }
                let matched = inScope.filter(filter.matches).map(\.seq)
                let result = try await InspectCLI.run(["expect", "--file", file, "--json", "--count", "1"] + arguments)
                XCTAssertEqual(result.status, matched.count == 1 ? 0 : 1, result.stderr)
                let json = try result.json()
                XCTAssertEqual(json["considered"]?.integerValue, Int64(inScope.count), "\(arguments)")
                guard case .array(let seqs)? = json["matched_seqs"] else { return XCTFail(result.stdout) }
                XCTAssertEqual(seqs.compactMap(\.integerValue).map(UInt64.init), matched, "\(arguments)")
                guard case .array(let closest)? = json["closest"] else { return XCTFail(result.stdout) }
                XCTAssertEqual(closest.count, min(3, inScope.count - matched.count), "\(arguments)")
            }
        }
    }

    func testABadLineIsReportedWithItsNumber() async throws {
        var lines = (UInt64(1)...50).map { seq -> [UInt8] in
            var line = StreamingRecording.record(seq: seq).jsonLine()
            line.removeLast()
            return line
        }
        lines.insert(Array("not a record".utf8), at: 40)
        let file = try StreamingRecording.write(lines: lines)
        for arguments in [["stats"], ["list"], ["list", "--limit", "20"], ["export"], ["expect"], ["show", "zz"]] {
            let result = try await InspectCLI.run(arguments + ["--file", file])
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("line 41 is not a mockapns record"), "\(arguments): \(result.stderr)")
        }
    }
}
