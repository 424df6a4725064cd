import Foundation
import XCTest

/// The system's `openssl` command, run in a folder of its own: a peer that shares no code with this module (its
/// key files, signatures and checks are made by another program), for tests that need one.
///
/// This target depends on APNsCrypto only, so it makes its folder itself rather than through PeerSupport's
/// `TestDirectory`; the folder is removed when the test ends.
struct OpenSSLCommand {
    /// The binary: Debian's OpenSSL 3 on Linux, LibreSSL on macOS.
    static let executable = "/usr/bin/openssl"

    /// The folder the command runs in, where its files are written.
    let directory: URL

    /// A fresh folder for `test`; skips the test when there is no `openssl` to run.
    init(for test: XCTestCase) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw XCTSkip("\(Self.executable) is not installed")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apnscrypto-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        self.directory = directory
    }

    /// The outcome of one run.
    struct Run {
        /// The exit status.
        let status: Int32
        /// What it wrote to standard output.
        let output: String
        /// What it wrote to standard error.
        let errors: String
    }

    /// Runs `openssl arguments…` in `directory` (standard input empty, so nothing can prompt) and returns its exit
    /// status and output.
    func run(_ arguments: [String]) throws -> Run {
        let outputPath = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errorsPath = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
        try Data().write(to: outputPath)
        try Data().write(to: errorsPath)
        let output = try FileHandle(forWritingTo: outputPath)
        let errors = try FileHandle(forWritingTo: errorsPath)
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        return Run(status: process.terminationStatus,
                   output: try String(contentsOf: outputPath, encoding: .utf8),
                   errors: try String(contentsOf: errorsPath, encoding: .utf8))
    }

    /// Runs `openssl arguments…` and fails the test unless it exits 0; returns its standard output.
    @discardableResult
    func succeed(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        guard result.status == 0 else {
            XCTFail("openssl \(arguments.joined(separator: " ")) exited \(result.status): \(result.errors)", file: file, line: line)
            throw CommandFailed()
        }
        return result.output
    }

    /// Thrown by `succeed` after it has reported the failure.
    struct CommandFailed: Error {}

    /// The path of `name` in `directory`.
    func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Writes `bytes` to `name` in `directory`.
    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
    }

    /// The bytes of `name` in `directory`.
    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The text of `name` in `directory`.
    func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
}
