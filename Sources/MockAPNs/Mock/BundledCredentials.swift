import Foundation

/// Finds the test-only credentials that ship in the repository's `certs/` folder, so `mockapns serve`
/// and `MockAPNs.start()` work with no flags.
///
/// Looked for, in order: `$MOCKAPNS_CERTS_DIR`; `certs/` beside or above the running executable (beside it in
/// `make dist`'s archive; a `.build/<triple>/release/mockapns` sits four levels below the package); the package
/// this module was compiled from (for packages that depend on MockAPNs by path).
public struct BundledCredentials: Sendable, Equatable {
    /// The folder holding `keys.json`, `ca.pem`, `server.pem`…
    public var directory: String

    /// `ca.pem`: the test CA that signs the server and client certificates.
    public var caPath: String { directory + "/ca.pem" }
    /// `server.pem`: the server certificate (SANs localhost, 127.0.0.1, ::1).
    public var serverCertificatePath: String { directory + "/server.pem" }
    /// `server-key.pem`: its private key.
    public var serverKeyPath: String { directory + "/server-key.pem" }
    /// `keys.json`: the bundled token signing keys.
    public var keysPath: String { directory + "/keys.json" }

    /// Uses an explicit folder.
    public init(directory: String) {
        self.directory = directory
    }

    /// Searches the usual places; throws naming every place it looked.
    public static func locate(sourceFile: String = #filePath) throws(ConfigurationError) -> BundledCredentials {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["MOCKAPNS_CERTS_DIR"], !env.isEmpty { candidates.append(env) }
        var dir = executableURL().resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("certs").path)
            dir.deleteLastPathComponent()
        }
        // Sources/MockAPNs/Mock/BundledCredentials.swift → package root.
        let root = URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent("certs").path)
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/keys.json") {
            return BundledCredentials(directory: candidate)
        }
        throw .bundledCredentialsNotFound(searched: candidates)
    }

    /// The running executable, because `argv[0]` is only a name when the binary was found on `PATH` (an unpacked
    /// `make dist` archive keeps `certs/` beside the binary): `/proc/self/exe` on Linux, the main bundle's
    /// executable (from `_NSGetExecutablePath`) on Darwin, `argv[0]` when neither answers.
    private static func executableURL() -> URL {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #else
        if let url = Bundle.main.executableURL { return url.resolvingSymlinksInPath() }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
    }
}
