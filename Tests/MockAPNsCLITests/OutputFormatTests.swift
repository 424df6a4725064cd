import APNsModel
import Foundation
import MockAPNs
import XCTest
@testable import MockAPNsCLI
import TestSupport

/// The output formats of the inspection commands, byte for byte: record texts and tables (`list`, `tail`), the
/// streamed JSON documents (`list --json`, `export`) and HAR archives.
final class OutputFormatTests: LeakCheckedTestCase {
    private let plain = TerminalStyle(enabled: false)

    /// What `body` writes through a ``BufferedOutput`` into a file, read back.
    private func written(_ body: (inout BufferedOutput) throws -> Void) throws -> String {
        let path = try makeTestDirectory("mockapns-cli") + "/out"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        var output = BufferedOutput(descriptor: descriptor, label: path)
        try body(&output)
        try output.flush()
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    func testRecordTextsForTablesAndReports() {
        XCTAssertEqual(RecordText.timestamp(1_795_563_847_127), "2026-11-24T23:44:07.127Z")
        XCTAssertEqual(RecordedRequest.clockText(1_795_563_847_127), "23:44:07.127")
        XCTAssertEqual(makeRecord(seq: 1).verdictText, "200 OK")
        XCTAssertEqual(makeRecord(seq: 1, status: 410, reason: "Unregistered").verdictText, "410 Unregistered")
        XCTAssertEqual(makeRecord(seq: 1, status: 0).verdictText, "no response")
        XCTAssertEqual(RecordedRequest.shortToken("00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"), "00fc13ad…e8f0")
        XCTAssertEqual(RecordedRequest.shortToken("0123456789abcdef"), "0123456789abcdef", "16 characters are shown whole")
        XCTAssertEqual(RecordedRequest.shortToken(nil), "-")
        XCTAssertEqual(RecordedRequest.clip("abcdef", 4), "abc…")
        XCTAssertEqual(RecordedRequest.clip("abcd", 4), "abcd")
    }

    func testSummaryNamesTheAlertOrWhatKindOfPushItIs() throws {
        func summary(_ json: String?) throws -> String {
            try makeRecord(seq: 1, payload: json.map { try JSONValue.parse(Array($0.utf8)) }).summaryText
        }
        XCTAssertEqual(try summary(#"{"aps":{"alert":{"title":"Shipped","body":"On its way"}}}"#), "Shipped — On its way")
        XCTAssertEqual(try summary(#"{"aps":{"alert":"Hello"}}"#), "Hello")
        XCTAssertEqual(try summary(#"{"aps":{"content-available":1}}"#), "(content-available)")
        XCTAssertEqual(try summary(#"{"aps":{"event":"end"}}"#), "(live activity: end)")
        XCTAssertEqual(try summary(#"{"custom":true}"#), #"{"custom":true}"#)
        XCTAssertEqual(try summary(nil), "(empty body)")
        XCTAssertEqual(try summary(#"{"aps":{"alert":"\#(String(repeating: "x", count: 60))"}}"#),
                       String(repeating: "x", count: 47) + "…", "clipped to 48 characters")
    }

    func testTablePrinterPadsColumnsToTheWidestCellAndLeavesTheLastUnpadded() {
        var table = TablePrinter(headers: ["A", "LONG TITLE", "C"])
        table.append(["wide cell", "x", "last"])
        table.append(["y", "z", ""])
        XCTAssertEqual(table.render(style: plain), """
            A          LONG TITLE  C
            wide cell  x           last
            y          z

            """)
    }

    func testTablePrinterDoesNotCountColourEscapesAsWidth() {
        let colour = TerminalStyle(enabled: true)
        var table = TablePrinter(headers: ["STATUS", "N"], minimumWidths: [0, 3])
        table.append([colour.green("200 OK"), "1"])
        XCTAssertEqual(TablePrinter.visibleWidth(colour.red("400")), 3)
        XCTAssertEqual(table.render(style: colour),
                       "\u{1B}[1mSTATUS  N\u{1B}[0m\n\u{1B}[32m200 OK\u{1B}[0m  1\n")
    }

    func testListTableOfTheNewestRecordsIsWhatTheBinaryPrinted() throws {
        let records = try RecordFile(path: InspectFixtures.recording).newest(3, matching: RecordFilter(limit: 3))
        var table = TablePrinter(headers: RecordText.columns)
        for record in records { table.append(RecordText.row(record, style: plain)) }
        XCTAssertEqual(table.render(style: plain), try InspectFixtures.goldenStdout(["list", "--limit", "3"]))
    }

    func testRowNotesFaultsLintAndTheUpstreamVerdict() throws {
        let records = try InspectFixtures.records()
        XCTAssertEqual(RecordText.row(records[7], style: plain),
                       ["8", "23:44:07.619", "503 ServiceUnavailable", "alert", "com.example.down", "aabbccdd…8899",
                        "Shipped — Order 42 is on its way", "fault: down"])
        XCTAssertEqual(RecordText.row(records[6], style: plain).last, "lint: 2")
        var relayed = makeRecord(seq: 3)
        relayed.relay = RelayVerdict(status: 410, reason: "Unregistered", durationMicros: 12_345)
        XCTAssertEqual(RecordText.row(relayed, style: plain).last, "upstream: 410 Unregistered")
        XCTAssertEqual(RecordText.relayVerdict(try XCTUnwrap(relayed.relay), style: plain), "410 Unregistered in 12.345 ms")
    }

    func testStreamedListJSONIsTheWholeDocumentByteForByte() throws {
        let records = try InspectFixtures.records()
        let text = try written { output in
            var writer = JSONArrayWriter(JSONArrayStream(pretty: false, document: ListCommand.document))
            for record in records { try writer.add(record.jsonValue(), to: &output) }
            try writer.finish(to: &output)
            try output.write("\n")
        }
        XCTAssertEqual(text, ListCommand.document(.array(records.map { $0.jsonValue() })).jsonText() + "\n")
        XCTAssertEqual(text, try InspectFixtures.goldenStdout(["list", "--json"]))
    }

    func testPrettyArrayStreamIndentsEachElementToItsPlace() {
        let document: (JSONValue) -> JSONValue = { .object([.init("outer", .object([.init("items", $0)]))]) }
        let stream = JSONArrayStream(pretty: true, document: document)
        let elements: [JSONValue] = [.object([.init("a", .integer(1))]), .string("line\nbreak"), .array([])]
        let streamed = stream.head + elements.map { String(decoding: stream.element($0), as: UTF8.self) }
            .joined(separator: stream.separator) + stream.tail
        XCTAssertEqual(streamed, document(.array(elements)).prettyText())
        XCTAssertEqual(stream.empty, document(.array([])).prettyText())
        XCTAssertEqual(JSONArrayStream(pretty: false, document: document).separator, ",")
    }

    func testHARExportOfTheRejectedPushIsWhatTheBinaryPrinted() throws {
        let text = try written { output in
            var writer = RecordExportWriter(format: .har, document: HARDocument(baseURL: "https://localhost:2197", creatorVersion: "0.1.0"))
            for record in try InspectFixtures.records() where record.response.status == 400 { try writer.add(record, to: &output) }
            try writer.finish(to: &output)
            XCTAssertEqual(writer.count, 1)
        }
        XCTAssertEqual(text, try InspectFixtures.goldenStdout(["export", "--format", "har", "--status", "400"]))
    }

    func testHARExportOfNoRecordsIsAnEmptyArchive() throws {
        let text = try written { output in
            let writer = RecordExportWriter(format: .har, document: HARDocument(baseURL: "https://localhost:2197", creatorVersion: "0.1.0"))
            try writer.finish(to: &output)
        }
        XCTAssertEqual(text, try InspectFixtures.goldenStdout(["export", "--format", "har", "--reason", "Nope"]))
        XCTAssertEqual(text, HARDocument(baseURL: "", creatorVersion: "0.1.0").json(for: []).prettyText() + "\n")
    }

    func testJSONLinesExportOfTheNewestTwoIsWhatTheBinaryPrinted() throws {
        let text = try written { output in
            var writer = RecordExportWriter(format: .jsonl, document: HARDocument(baseURL: "https://localhost:2197", creatorVersion: "0.1.0"))
            for record in try RecordFile(path: InspectFixtures.recording).newest(2, matching: RecordFilter()) {
                try writer.add(record, to: &output)
            }
            try writer.finish(to: &output)
        }
        XCTAssertEqual(text, try InspectFixtures.goldenStdout(["export", "--limit", "2"]))
    }

    func testHAREntryOfAnUnansweredHTTP1RequestWithAQuery() throws {
        var record = makeRecord(seq: 4, status: 0, payload: nil)
        record.streamID = 0
        record.path = "/3/device/abcd?x=1&name=a%20b&flag"
        let entry = HARDocument(baseURL: "http://127.0.0.1:2199", creatorVersion: "9").entry(record)
        XCTAssertEqual(entry["request"]?["httpVersion"]?.stringValue, "HTTP/1.1")
        XCTAssertEqual(entry["request"]?["url"]?.stringValue, "http://127.0.0.1:2199/3/device/abcd?x=1&name=a%20b&flag")
        XCTAssertEqual(entry["request"]?["queryString"]?.jsonText(),
                       #"[{"name":"x","value":"1"},{"name":"name","value":"a b"},{"name":"flag","value":""}]"#)
        XCTAssertNil(entry["request"]?["postData"], "no body, no postData")
        XCTAssertEqual(entry["response"]?["status"]?.integerValue, 0)
        XCTAssertEqual(entry["response"]?["statusText"]?.stringValue, "")
        XCTAssertEqual(entry["response"]?["bodySize"]?.integerValue, -1)
        XCTAssertEqual(HARDocument.statusText(429), "Too Many Requests")
        XCTAssertEqual(HARDocument.statusText(418), "Status 418")
    }
}
