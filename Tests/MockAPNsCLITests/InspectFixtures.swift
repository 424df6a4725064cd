import APNsModel
import Foundation
import MockAPNs
import TestSupport
import XCTest
@testable import MockAPNsCLI

/// The recordings of `Fixtures/inspect/` (a real `serve --record` file of 17 records, and a copy with a blank line, a
/// CRLF line and a torn last line) and the outputs the binary printed for them (`goldens.json`, also checked end to
/// end by `InspectGoldenTests`).
enum InspectFixtures {
    static let folder = RepoPaths.fixtures + "/inspect"
    static let recording = folder + "/recording.jsonl"
    static let tornRecording = folder + "/recording-torn.jsonl"

    /// The golden standard output of `mockapns ARGUMENTS --file <recording>`, `{file}` spelled as the path.
    static func goldenStdout(_ arguments: [String], recording name: String = "recording.jsonl") throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/goldens.json"))
        guard case .array(let cases) = try JSONValue.parse(Array(data)) else { throw FixtureError("goldens.json is not a list") }
        for golden in cases where golden["recording"]?.stringValue == name {
            guard case .array(let values)? = golden["arguments"], values.compactMap(\.stringValue) == arguments else { continue }
            guard let stdout = golden["stdout"]?.stringValue else { throw FixtureError("a golden without stdout") }
            return stdout.replacingOccurrences(of: "{file}", with: folder + "/" + name)
        }
        throw FixtureError("no golden for \(arguments) on \(name)")
    }

    /// Every record of a fixture recording, read with the command line's reader.
    static func records(_ path: String = recording) throws -> [RecordedRequest] {
        var records: [RecordedRequest] = []
        try RecordFile(path: path).forEachRecord { record in
            records.append(record)
            return true
        }
        return records
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// A record with the fields the inspection texts read, the rest plain.
func makeRecord(seq: UInt64, status: Int = 200, reason: String? = nil, topic: String? = "com.example.app",
                pushType: String? = "alert", token: String? = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0",
                payload: JSONValue? = .object([.init("aps", .object([.init("alert", .string("Hello"))]))]),
                faults: [String] = [], durationMicros: Int64 = 1_500) -> RecordedRequest {
    var headers: [HeaderField] = []
    if let pushType { headers.append(HeaderField(name: "apns-push-type", value: pushType)) }
    if let topic { headers.append(HeaderField(name: "apns-topic", value: topic)) }
    let body = payload.map { Array($0.jsonText().utf8) } ?? []
    return RecordedRequest(
        seq: seq, receivedAtMillis: 1_795_563_847_127 + Int64(seq), connectionID: 1, streamID: Int32(seq * 2 + 1),
        remote: "127.0.0.1:53550", method: "POST", path: "/3/device/" + (token ?? ""), deviceToken: token,
        headers: headers, body: body, payload: payload, payloadBytes: body.count,
        auth: .init(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_795_563_847),
        response: .init(status: status, reason: reason, apnsID: "4af2e6f0-2074-451f-bb90-eea8712ef57d"),
        faults: faults, lint: [], durationMicros: durationMicros)
}

extension XCTestCase {
    /// A file in a folder of this test's own, holding `text`.
    func writeTestFile(_ name: String, _ text: String) throws -> String {
        let path = try makeTestDirectory("mockapns-cli") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `records` as a `serve --record` file would hold them: one JSON line each.
    func recordingText(_ records: [RecordedRequest]) -> String {
        records.map { String(decoding: $0.jsonLine(), as: UTF8.self) }.joined()
    }
}
