import Foundation
import XCTest

/// One request through `/usr/bin/curl`, which (unlike URLSession) sends exactly the `Host` and `Origin`
/// headers a test gives it, as a browser or a DNS-rebinding page would.
enum CurlRequest {
    /// The answer: status, headers (lowercased names, last value wins) and body text.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    /// Sends `method url` with `headers` (`"Name: value"`) and an optional body; fails the test if curl fails.
    static func send(_ method: String, _ url: String, headers: [String] = [], body: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) throws -> Answer {
        let folder = NSTemporaryDirectory() + "curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var arguments = ["-sS", "--http1.1", "--max-time", "20", "-X", method, "-o", folder + "/body", "-D", folder + "/head",
                         "-w", "%{http_code}"]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments + [url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "curl \(arguments)", file: file, line: line)
        var fields: [String: String] = [:]
        let head = (try? String(contentsOfFile: folder + "/head", encoding: .utf8)) ?? ""
        for raw in head.split(whereSeparator: \.isNewline) {
            guard let colon = raw.firstIndex(of: ":") else { continue }
            fields[raw[..<colon].lowercased()] = raw[raw.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: Int(status) ?? 0, headers: fields,
                      body: (try? String(contentsOfFile: folder + "/body", encoding: .utf8)) ?? "")
    }
}
