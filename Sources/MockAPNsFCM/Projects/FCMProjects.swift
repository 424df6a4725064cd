import APNsCrypto
import Foundation
import Support

/// The projects the front door serves and the service-account keys it trusts for them.
///
/// A project exists once a key is trusted for it: made by the mock (``makeServiceAccount(project:)``, kept in the
/// data folder so a file handed out once stays trusted across restarts) or read from a user's file. Its number (the
/// `google.c.sender.id` an iPhone sees, and the path's "legacy" form) is derived from the id, so it is the same in
/// every run and on every instance.
public final class FCMProjects: Sendable {
    private struct State {
        /// Trusted keys by `kid`.
        var keys: [String: ServiceAccountKey] = [:]
        /// Project ids with at least one key, in the order they became known.
        var projects: [String] = []
    }
    private let state = Locked(State())
    /// Where made accounts are written (`<folder>/service-accounts/<project>-<kid>.json`); nil: memory only.
    private let folder: String?

    /// An empty registry writing made accounts under `dataDirectory`.
    public init(dataDirectory: String?) {
        folder = dataDirectory.map { $0 + "/service-accounts" }
    }

    /// Trusts every account kept in the data folder, then `files` (a user's own), and makes sure `defaultProject`
    /// has a file of its own; returns that file's path (nil without a data folder).
    public func load(files: [String], defaultProject: String) throws(FCMSetupError) -> String? {
        if let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names.sorted() where name.hasSuffix(".json") {
                try trust(fileAt: folder + "/" + name)
            }
        }
        for file in files { try trust(fileAt: file) }
        guard let folder else {
            _ = try makeServiceAccount(project: defaultProject)
            return nil
        }
        let defaultFile = folder + "/\(defaultProject).json"
        if !FileManager.default.fileExists(atPath: defaultFile) {
            let account = try makeServiceAccount(project: defaultProject, persist: false)
            try Self.write(account.fileText, to: defaultFile)
        }
        return defaultFile
    }

    /// Reads and trusts one service-account file (its public key).
    public func trust(fileAt path: String) throws(FCMSetupError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .file(path: path, problem: "cannot read it")
        }
        add(try ServiceAccountKey(fileText: text, path: path))
    }

    /// A new service account for `project`, trusted from now on (and kept in the data folder, when there is one).
    public func makeServiceAccount(project: String, persist: Bool = true) throws(FCMSetupError) -> ServiceAccount {
        guard Self.isProjectID(project) else { throw .badProjectID(project) }
        let account: ServiceAccount
        let key: ServiceAccountKey
        do {
            account = try ServiceAccount.make(project: project)
            key = try ServiceAccountKey(account)
        } catch {
            throw .badServiceAccount(path: "a new key", problem: "\(error)")
        }
        if persist, let folder {
            try Self.write(account.fileText, to: folder + "/\(project)-\(account.privateKeyID).json")
        }
        add(key)
        return account
    }

    private func add(_ key: ServiceAccountKey) {
        state.withLock { state in
            state.keys[key.keyID] = key
            if !state.projects.contains(key.projectID) { state.projects.append(key.projectID) }
        }
    }

    /// The trusted key with id `kid`.
    public func key(id kid: String) -> ServiceAccountKey? {
        state.withLock { $0.keys[kid] }
    }

    /// Every project with a trusted key.
    public var projectIDs: [String] { state.withLock { $0.projects } }

    /// The project a path's `{project}` names: its id, or its number ("for legacy support").
    public func project(named name: String) -> String? {
        state.withLock { state in
            if state.projects.contains(name) { return name }
            return state.projects.first { Self.number(of: $0) == name }
        }
    }

    /// The project's number: 12 digits derived from its id (FNV-1a), the same in every run.
    public static func number(of project: String) -> String {
        var text = project
        let hash = text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        return String(100_000_000_000 + hash % 900_000_000_000)
    }

    /// Whether `id` is a project id Google accepts: 6 to 30 of `a-z0-9-`, a letter first, no hyphen last.
    public static func isProjectID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// Writes a key file readable by its owner only.
    private static func write(_ text: String, to path: String) throws(FCMSetupError) {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                      attributes: [.posixPermissions: 0o700])
            let temporary = path + ".\(getpid()).tmp"
            guard files.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw FCMSetupError.file(path: path, problem: "cannot write it")
            }
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? files.removeItem(atPath: temporary)
                throw FCMSetupError.file(path: path, problem: "cannot write it (\(reason))")
            }
        } catch let error as FCMSetupError {
            throw error
        } catch {
            throw .file(path: path, problem: "cannot write it (\(error.localizedDescription))")
        }
    }
}
