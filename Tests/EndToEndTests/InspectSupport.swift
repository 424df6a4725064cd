import APNsModel
import DeviceSimulation
import Foundation
import MockAPNs
import Synchronization
import TestSupport
import XCTest

/// Runs the built `mockapns` binary for the inspection-command tests.
enum InspectCLI {
    /// What one run produced.
    struct Result {
        /// Exit status.
        let status: Int32
        /// Standard output.
        let stdout: String
        /// Standard error.
        let stderr: String

        /// Standard output parsed as JSON.
        func json() throws -> JSONValue { try JSONValue.parse(Array(stdout.utf8)) }
    }

    /// The `mockapns` executable next to the test bundle (`$MOCKAPNS_BINARY` overrides).
    static var binary: URL {
        get throws {
            if let path = ProcessInfo.processInfo.environment["MOCKAPNS_BINARY"] { return URL(fileURLWithPath: path) }
            var candidates: [URL] = []
            for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("mockapns"))
            }
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("mockapns"))
            candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("mockapns"))
            if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
            throw BinaryNotFound(searched: candidates.map(\.path))
        }
    }

    /// The binary is not built: `swift build --build-tests` (or `make test`) builds it.
    struct BinaryNotFound: Error, CustomStringConvertible {
        /// Where it was looked for.
        let searched: [String]
        var description: String { "the mockapns binary is not built; looked at \(searched.joined(separator: ", ")). Run `swift build --build-tests` first." }
    }

    /// Runs `mockapns arguments…` to completion (with NO_COLOR unset: output is not a terminal, so no colour anyway).
    /// `environment` entries are added to (or, with a nil value, removed from) the test process's environment.
    /// Output goes to files, read once the process has exited: a pipe read through Foundation's readability handler
    /// now and then loses its last chunk on Linux, and a command's output must be compared whole.
    static func run(_ arguments: [String], timeout: Duration = .seconds(60), environment: [String: String?] = [:]) async throws -> Result {
        let process = Process()
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let folder = URL(fileURLWithPath: try TestDirectory.make("mockapns-cli"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.executableURL = try binary
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                XCTFail("mockapns \(arguments.joined(separator: " ")) did not finish within \(timeout)")
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }
}

/// A recording file written with the recorder's own JSON Lines format.
enum InspectRecording {
    /// A record of a push, as the pipeline would store it.
    static func record(
        seq: UInt64, token: String = "aabbccddeeff00112233445566778899", topic: String = "com.example.app",
        pushType: String = "alert", status: Int = 200, reason: String? = nil, title: String = "Shipped",
        badge: Int64 = 1, faults: [String] = [], lint: [LintFinding] = []
    ) -> RecordedRequest {
        let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IlRFU1RLRVkwMDEifQ.eyJpc3MiOiJURVNUVEVBTTAxIiwiaWF0IjoxNzk1NDQyMDAwfQ.c2lnbmF0dXJl"
        return .sample(
            seq: seq, receivedAtMillis: 1_795_442_400_000 + Int64(seq) * 1000, connectionID: 3, streamID: Int32(seq * 2 + 1),
            remote: "127.0.0.1:51000", token: token, topic: topic, pushType: pushType,
            extraHeaders: [HeaderField(name: "authorization", value: "bearer \(jwt)")],
            title: title, alertBody: "Order 42", badge: badge,
            auth: .init(kind: "token", teamID: "TESTTEAM01", keyID: "TESTKEY001", issuedAt: 1_795_442_000),
            status: status, reason: reason, apnsID: String(format: "00000000-0000-4000-8000-%012d", seq),
            faults: faults, lint: lint, durationMicros: 1500)
    }

    /// The standard four-record recording the tests share.
    static let standard: [RecordedRequest] = [
        record(seq: 1, title: "Shipped", badge: 1),
        record(seq: 2, token: "0123", status: 400, reason: "BadDeviceToken", title: "Shipping"),
        record(seq: 3, topic: "com.example.other", pushType: "background", title: "Quiet", faults: ["slow-topic"]),
        record(seq: 4, status: 410, reason: "Unregistered", title: "Delivered", badge: 2,
               lint: [.init(id: "badge-not-cleared", severity: .warning, message: "The badge grows without a reset.", path: "aps.badge")]),
    ]

    /// Writes `records` to a new temporary `.jsonl` file and returns its path.
    static func write(_ records: [RecordedRequest] = standard) throws -> String {
        let directory = URL(fileURLWithPath: try TestDirectory.make("mockapns-inspect"))
        let path = directory.appendingPathComponent("rec.jsonl").path
        let bytes = records.flatMap { $0.jsonLine() }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Appends `record` to the file at `path`.
    static func append(_ record: RecordedRequest, to path: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(record.jsonLine()))
    }
}
