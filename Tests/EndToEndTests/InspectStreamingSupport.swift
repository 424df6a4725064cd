#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import APNsModel
import Foundation
import MockAPNs
import TestSupport
import XCTest

/// Recordings made for the streaming tests, and the whole-file reading the inspection commands did before they
/// streamed (every line decoded into memory first), as the reference the streaming commands are compared with.
enum StreamingRecording {
    /// Writes `lines` (each without its newline) joined by `\n`, plus `trailer` verbatim, to a new temporary file.
    static func write(lines: [[UInt8]], trailer: [UInt8] = [UInt8(ascii: "\n")], name: String = "rec.jsonl") throws -> String {
        let directory = URL(fileURLWithPath: try TestDirectory.make("mockapns-stream"))
        let path = directory.appendingPathComponent(name).path
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "\n")) }
            bytes += line
        }
        bytes += trailer
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A varied record numbered `seq`: statuses, topics, push types and tokens cycle so filters select subsets.
    static func record(seq: UInt64, bodyPadding: Int = 0) -> RecordedRequest {
        let statuses: [(Int, String?)] = [(200, nil), (400, "BadDeviceToken"), (200, nil), (410, "Unregistered"), (200, nil)]
        let (status, reason) = statuses[Int(seq % 5)]
        return InspectRecording.record(
            seq: seq, token: String(format: "%064x", seq % 7), topic: seq % 3 == 0 ? "com.example.other" : "com.example.app",
            pushType: seq % 4 == 0 ? "background" : "alert", status: status, reason: reason,
            title: "Order \(seq % 11)" + String(repeating: "x", count: bodyPadding), badge: Int64(seq % 13),
            faults: seq % 17 == 0 ? ["slow"] : []
        )
    }

    /// Every record the file holds, read the way the commands read files before they streamed: the whole file,
    /// split on newlines, every complete line decoded (a torn last line only when it decodes).
    static func wholeFile(_ path: String) throws -> [RecordedRequest] {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        let remainder = lines.removeLast()
        var records: [RecordedRequest] = []
        for var line in lines {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            records.append(try RecordedRequest(jsonLine: line))
        }
        if !remainder.isEmpty, let last = try? RecordedRequest(jsonLine: remainder) { records.append(last) }
        return records
    }
}

/// Runs `mockapns` as a child process and reads its peak resident set size from `wait4`'s resource usage.
enum PeakMemory {
    /// What one run used.
    struct Usage {
        /// Exit status.
        let status: Int32
        /// Peak resident set size in kilobytes (from `ru_maxrss`, which Linux gives in KiB and Darwin in bytes).
        let peakKB: Int
    }

    /// Runs the built `mockapns` with `arguments`, standard output into `stdoutPath` (discarded when nil), and
    /// returns its exit status and peak RSS.
    static func run(_ arguments: [String], stdoutPath: String? = nil) throws -> Usage {
        let binary = try InspectCLI.binary.path
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #elseif canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil   // an opaque pointer there, which _init allocates
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        #if canImport(Glibc)
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        #elseif canImport(Darwin)
        // Darwin's module does not give Swift `environ`.
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, _NSGetEnviron().pointee)
        #endif
        guard spawned == 0 else { throw SpawnFailure(binary: binary, code: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw SpawnFailure(binary: binary, code: errno) }
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        #if canImport(Darwin)
        let peakKB = Int(usage.ru_maxrss) / 1024
        #else
        let peakKB = Int(usage.ru_maxrss)
        #endif
        return Usage(status: exit, peakKB: peakKB)
    }

    /// `posix_spawn` or `wait4` failed.
    struct SpawnFailure: Error, CustomStringConvertible {
        /// The program.
        let binary: String
        /// The errno.
        let code: Int32
        var description: String { "could not run \(binary): \(String(cString: strerror(code))); is it built (`swift build --build-tests`)?" }
    }
}

extension StreamingRecording {
    /// Runs `mockapns arguments…` with standard output written to a file, and returns its exit status and output:
    /// large outputs arrive whole, however loaded the machine (no pipe drained against a deadline).
    static func output(of arguments: [String]) throws -> (status: Int32, stdout: String) {
        let folder = try TestDirectory.make("mockapns-out")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/stdout"
        let usage = try PeakMemory.run(arguments, stdoutPath: path)
        return (usage.status, String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: path)), as: UTF8.self))
    }
}
