import Foundation

/// One request through `/usr/bin/curl`, which (unlike URLSession) sends exactly the `Host` and `Origin`
/// headers a test gives it, as a browser or a DNS-rebinding page would.
public enum CurlRequest {
    /// The answer: status, headers (lowercased names, last value wins) and body text.
    public struct Answer {
        public let status: Int
        public let headers: [String: String]
        public let body: String
    }

    /// Sends `method url` with `headers` (`"Name: value"`) and an optional body; throws (failing the test) if curl
    /// fails.
    public static func send(_ method: String, _ url: String, headers: [String] = [], body: String? = nil) throws -> Answer {
        let folder = try TestDirectory.make("curl")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var arguments = ["-sS", "--http1.1", "--max-time", "20", "-X", method, "-o", folder + "/body", "-D", folder + "/head",
                         "-w", "%{http_code}"]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        let output = try PeerProcess.run("/usr/bin/curl", arguments + [url])
        guard output.status == 0 else { throw Failed(description: "curl \(arguments) exited \(output.status): \(output.stderr)") }
        let status = output.stdout
        var fields: [String: String] = [:]
        let head = (try? String(contentsOfFile: folder + "/head", encoding: .utf8)) ?? ""
        for raw in head.split(whereSeparator: \.isNewline) {
            guard let colon = raw.firstIndex(of: ":") else { continue }
            fields[raw[..<colon].lowercased()] = raw[raw.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: Int(status) ?? 0, headers: fields,
                      body: (try? String(contentsOfFile: folder + "/body", encoding: .utf8)) ?? "")
    }

    /// curl exited with a failure.
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }
}
