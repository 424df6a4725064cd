import APNsModel
import Foundation

/// A push payload read from disk: a plain `.json` body, or a Simulator `.apns` file.
///
/// An `.apns` file is the payload plus a top-level `"Simulator Target Bundle"` key naming the app; that key
/// is not part of the push, so it is removed from `payload` and returned as `targetBundle`.
struct PayloadFile {
    /// The key Xcode's Simulator reads the bundle ID from in an `.apns` file.
    static let targetBundleKey = "Simulator Target Bundle"

    /// The push body.
    let payload: JSONValue
    /// The `.apns` file's target bundle, used as the topic when none is given.
    let targetBundle: String?
    /// The body's size in bytes as it would be sent: the file's size for `.json`, the re-encoded payload
    /// without the target-bundle key for `.apns`.
    let byteCount: Int

    /// Reads and parses `path`.
    static func load(path: String) throws(PayloadFileError) -> PayloadFile {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(path: path, reason: error.description)
        }
        guard path.lowercased().hasSuffix(".apns") else {
            return PayloadFile(payload: value, targetBundle: nil, byteCount: bytes.count)
        }
        guard let members = value.objectMembers else { throw .apnsNotObject(path: path) }
        let bundle = value[targetBundleKey]?.stringValue
        let payload = JSONValue.object(members.filter { $0.key != targetBundleKey })
        return PayloadFile(payload: payload, targetBundle: bundle, byteCount: payload.jsonText().utf8.count)
    }
}

/// Why a payload file could not be used.
enum PayloadFileError: Error, CustomStringConvertible {
    /// The file is missing or unreadable.
    case unreadable(path: String, reason: String)
    /// The file is not valid JSON.
    case notJSON(path: String, reason: String)
    /// An `.apns` file whose top level is not an object.
    case apnsNotObject(path: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .notJSON(let path, let reason): return "\(path) is not JSON: \(reason)"
        case .apnsNotObject(let path): return "\(path): an .apns file must hold a JSON object"
        }
    }
}
