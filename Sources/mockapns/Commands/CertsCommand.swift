import APNsCrypto
import ArgumentParser
import Foundation
import MockAPNs

/// `mockapns certs`: fresh test-only credentials, and one-command trust of the test CA (as mkcert does).
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Write fresh test credentials, or add the test CA to this machine's trust store.",
        discussion: """
            --out DIR writes a test CA, a server certificate (localhost, 127.0.0.1, ::1), APNs client certificates \
            with topic and environment extensions, .p8 token keys and keys.json — the same set as the repository's \
            certs/ folder. For tests only: never use them in production.
            --install copies the CA (the bundled certs/ca.pem, or DIR/ca.pem with --out) into the system trust store \
            (Debian/Ubuntu: /usr/local/share/ca-certificates, then update-ca-certificates); --uninstall removes it.
            """
    )

    @Option(help: "Write a fresh credential set into this folder (created if missing).") var out: String?
    @Flag(help: "Overwrite files that already exist in --out.") var force = false
    @Flag(help: "Add the test CA to the system trust store.") var install = false
    @Flag(help: "Remove the test CA from the system trust store.") var uninstall = false
    @Option(help: "Trust-store folder (default /usr/local/share/ca-certificates).") var trustStore = "/usr/local/share/ca-certificates"
    @Flag(help: "Print what was done as JSON.") var json = false

    static let installedName = "mockapns-test-ca.crt"

    func validate() throws {
        guard out != nil || install || uninstall else {
            throw ValidationError("say what to do: --out DIR, --install or --uninstall")
        }
        if install && uninstall { throw ValidationError("--install and --uninstall are exclusive") }
    }

    func run() throws {
        var written: [String] = []
        if let out {
            written = try write(to: out)
        }
        var trusted: String?
        if install {
            let ca = try out.map { $0 + "/ca.pem" } ?? BundledCredentials.locate().caPath
            trusted = try installCA(from: ca)
        } else if uninstall {
            trusted = try uninstallCA()
        }
        if json {
            var object: [String: Any] = ["files": written]
            if let trusted { object[install ? "installed" : "removed"] = trusted }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for file in written { print("wrote \(file)") }
            if let trusted { print(install ? "trusted \(trusted) (system store updated)" : "removed \(trusted)") }
            if !written.isEmpty { print("Test-only credentials: never use them in production.") }
        }
    }

    private func write(to folder: String) throws -> [String] {
        let files: [TestCredentialFactory.File]
        do {
            files = try TestCredentialFactory.makeStandardFiles(now: Int64(Date().timeIntervalSince1970))
        } catch {
            throw CertsFailure("could not make the credentials: \(error)")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if !force {
            let existing = files.map { folder + "/" + $0.name }.filter { FileManager.default.fileExists(atPath: $0) }
            if !existing.isEmpty {
                throw ValidationError("\(existing.count) file(s) already exist in \(folder) (e.g. \(existing[0])); pass --force to overwrite")
            }
        }
        var paths: [String] = []
        for file in files {
            let path = folder + "/" + file.name
            let secret = file.name.hasSuffix("-key.pem") || file.name.hasSuffix(".p8")
            try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            if secret { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path) }
            paths.append(path)
        }
        return paths
    }

    private func installCA(from path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("no CA at \(path)") }
        let target = trustStore + "/" + Self.installedName
        do {
            try FileManager.default.createDirectory(atPath: trustStore, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: target) { try FileManager.default.removeItem(atPath: target) }
            try FileManager.default.copyItem(atPath: path, toPath: target)
        } catch {
            throw CertsFailure("cannot write \(target): \(error.localizedDescription) (run as root, or pass --trust-store)")
        }
        try updateTrust()
        return target
    }

    private func uninstallCA() throws -> String {
        let target = trustStore + "/" + Self.installedName
        guard FileManager.default.fileExists(atPath: target) else { throw CertsFailure("\(target) is not installed") }
        try FileManager.default.removeItem(atPath: target)
        try updateTrust()
        return target
    }

    /// Runs update-ca-certificates for the default store; a custom --trust-store is left for the caller.
    private func updateTrust() throws {
        guard trustStore == "/usr/local/share/ca-certificates" else { return }
        let tool = "/usr/sbin/update-ca-certificates"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw CertsFailure("\(tool) not found: install the ca-certificates package, or add the CA to your trust store by hand")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CertsFailure("update-ca-certificates failed (status \(process.terminationStatus))") }
    }
}

/// A `certs` step that could not be done (exit status 1), said so a user can fix it.
struct CertsFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
