import APNsModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Support
import MockTestSupport
import XCTest
@testable import MockAPNs
@testable import MockAPNsRecording

/// The recording contract when the disk fails: no success is answered while a record cannot be written, nothing
/// already answered is skipped over in the file, and what could not be kept is counted.
final class RecordFileFailureTests: LeakCheckedTestCase {
    private var path: String!

    override func setUpWithError() throws {
        path = try makeTestDirectory("failing", file: "failing.jsonl")
    }

    private func seqs() throws -> [UInt64] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.isEmpty || text.hasSuffix("\n"), "the file ends with a whole line")
        return try text.split(separator: "\n").map { try RecordedRequest(jsonLine: Array($0.utf8)).seq }
    }

    func testRecordsHeldWhileTheDiskIsFullReachTheFileInOrderOnceItHasRoom() throws {
        let disk = RecordFileAppenderTests.FakeDisk()
        let recorder = try Recorder(memoryLimit: 10, filePath: path, fileQueueLimit: 1000, fileOperations: disk.operations)
        let status = try XCTUnwrap(recorder.fileStatus)
        for _ in 0..<5 { recorder.append(RecorderTests.sample()) }
        recorder.flush()
        XCTAssertFalse(status.isUnwritable)
        disk.failing.withLock { $0 = ENOSPC }
        for _ in 0..<20 { recorder.append(RecorderTests.sample()) }
        XCTAssertTrue(Poll.blockingUntil { status.isUnwritable }, "a failed write marks the file unwritable")
        XCTAssertTrue(recorder.fileIsUnwritable)
        XCTAssertEqual(status.failures, 1)
        XCTAssertEqual(try seqs(), Array(1...5), "nothing partial written while the disk is full")
        for _ in 0..<5 { recorder.append(RecorderTests.sample()) }
        disk.failing.withLock { $0 = 0 }
        XCTAssertTrue(Poll.blockingUntil { !status.isUnwritable }, "written again once there is room")
        recorder.flush()
        XCTAssertEqual(try seqs(), Array(1...30), "every record, in seq order, none skipped")
        XCTAssertEqual(status.lost, 0)
        XCTAssertEqual(status.failures, 1, "one failure period")
        recorder.shutdown()
        XCTAssertEqual(status.lost, 0)
    }

    /// Past its bound, the writer stops holding records for a failing file and counts them lost, as it does with
    /// what is still held when the recorder shuts down.
    func testRecordsPastTheHeldBoundAndAtShutdownAreCountedLost() throws {
        let disk = RecordFileAppenderTests.FakeDisk()
        disk.failing.withLock { $0 = EIO }
        let recorder = try Recorder(memoryLimit: 10, filePath: path, fileQueueLimit: 1000, heldBytesLimit: 1,
                                    fileOperations: disk.operations)
        let status = try XCTUnwrap(recorder.fileStatus)
        recorder.append(RecorderTests.sample())
        XCTAssertTrue(Poll.blockingUntil { status.isUnwritable })
        recorder.append(RecorderTests.sample())
        recorder.append(RecorderTests.sample())
        XCTAssertTrue(Poll.blockingUntil { status.lost == 2 }, "records past the bound are counted (\(status.lost))")
        XCTAssertEqual(status.waiting, 1)
        recorder.shutdown()
        XCTAssertEqual(status.lost, 3, "the held record is lost at shutdown")
        XCTAssertEqual(try seqs(), [])
    }

    /// While the file is unwritable, a push that would succeed is answered 500 InternalServerError (and recorded
    /// so); once the file can be written again, 200.
    func testPipelineAnswers500InsteadOfSuccessWhileTheFileIsUnwritable() throws {
        let disk = RecordFileAppenderTests.FakeDisk()
        let recorder = try Recorder(memoryLimit: 100, filePath: path, fileQueueLimit: 1000, fileOperations: disk.operations)
        let pipeline = Pipeline(configuration: MockConfiguration(),
                                tokens: ProviderTokenAuthenticator(keys: TrustedKeyStore(), trustAnySignature: true),
                                certificates: CertificateAuthenticator(trustStore: nil), recorder: recorder)
        let jwt = try TestTokens.jwt()
        let push = APNsRequest(method: "POST", path: "/3/device/" + TestTokens.token64, headers: [
            HeaderField(name: "authorization", value: "bearer " + jwt), HeaderField(name: "apns-topic", value: "com.example.app"),
            HeaderField(name: "apns-push-type", value: "alert"),
        ], body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        let connection = PipelineConnection(id: 1, remote: "127.0.0.1:1", streamID: 1)
        XCTAssertEqual(pipeline.answerNow(push, on: connection).status, 200)
        disk.failing.withLock { $0 = ENOSPC }
        recorder.append(RecorderTests.sample())
        XCTAssertTrue(Poll.blockingUntil { recorder.fileIsUnwritable })
        let refused = pipeline.answerNow(push, on: connection)
        XCTAssertEqual(refused.status, 500)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), #"{"reason":"InternalServerError"}"#)
        XCTAssertEqual(recorder.record(seq: 3)?.response.status, 500)
        XCTAssertEqual(recorder.record(seq: 3)?.response.reason, "InternalServerError")
        disk.failing.withLock { $0 = 0 }
        XCTAssertTrue(Poll.blockingUntil { !recorder.fileIsUnwritable })
        XCTAssertEqual(pipeline.answerNow(push, on: connection).status, 200)
        recorder.shutdown()
        XCTAssertEqual(try seqs(), [1, 2, 3, 4])
    }

    /// `--record-sync`: the answer is handed over only once the record's line is in the file.
    func testSynchronousRecorderAnswersOnlyAfterTheLineIsWritten() throws {
        let gate = DispatchSemaphore(value: 0)
        let recorder = try Recorder(memoryLimit: 10, filePath: path, fileQueueLimit: 1000, synchronousFile: true,
                                    beforeFileBatch: { gate.wait() })
        addTeardownBlock { recorder.shutdown() }
        XCTAssertTrue(recorder.writesBeforeAnswering)
        let answered = Locked<[Bool]>([])
        let path = self.path!
        recorder.appendNumbered(RecorderTests.sample()) { written in
            let onDisk = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            answered.withLock { $0.append(written && onDisk.hasSuffix("\n") && !onDisk.isEmpty) }
        }
        usleep(200_000)
        XCTAssertEqual(answered.withLock { $0 }, [], "not answered while the disk holds the write")
        gate.signal()
        XCTAssertTrue(Poll.blockingUntil { answered.withLock { $0 } == [true] }, "answered after the line was written")
    }
}
