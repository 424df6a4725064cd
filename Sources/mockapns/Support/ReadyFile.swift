import Foundation

/// The file `serve --ready-file` writes once it listens, so scripts can wait for it and read the URLs.
struct ReadyFile: Codable {
    var apnsURL: String
    var pid: Int32
    var controlURL: String?
    var http1URL: String?
    var dashboardURL: String?

    enum CodingKeys: String, CodingKey {
        case apnsURL = "apns_url", pid, controlURL = "control_url", http1URL = "http1_url"
        case dashboardURL = "dashboard_url"
    }

    /// Writes atomically (temporary file, then rename), so a reader never sees half a file.
    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
