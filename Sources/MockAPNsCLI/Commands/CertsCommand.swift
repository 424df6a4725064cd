import APNsModel
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
            --install makes a CA of this machine's own and a server certificate signed by it (as mkcert does) in \
            $XDG_DATA_HOME/mockapns or ~/.local/share/mockapns (DIR with --out), installs only that CA into the system \
            trust store (Debian/Ubuntu: /usr/local/share/ca-certificates, then update-ca-certificates) and prints the \
            `mockapns serve --cert … --key …` line that uses them. A later --install reuses that CA (--force makes a \
            new one). The bundled certs/ CA is never installed: its private key is public in the repository, so \
            anyone could mint certificates a machine trusting it would accept. --uninstall removes the installed CA.
            """
    )

    @Option(help: "Write a fresh credential set into this folder (created if missing).") var out: String?
    @Flag(help: "Overwrite files that already exist in --out; with --install, make a new CA even if one exists.") var force = false
    @Flag(help: "Make this machine's own CA and server certificate and add that CA to the system trust store.") var install = false
    @Flag(help: "Remove the test CA from the system trust store.") var uninstall = false
    @Option(help: "Trust-store folder (default /usr/local/share/ca-certificates).") var trustStore = CertsCommand.systemTrustStore
    @Flag(help: "Print what was done as JSON.") var json = false

    static let installedName = "mockapns-test-ca.crt"
    /// Debian/Ubuntu's folder for local CAs, read by update-ca-certificates.
    static let systemTrustStore = "/usr/local/share/ca-certificates"

    func validate() throws {
        guard out != nil || install || uninstall else {
            throw ValidationError("say what to do: --out DIR, --install or --uninstall")
        }
        if install && uninstall { throw ValidationError("--install and --uninstall are exclusive") }
    }

    func run() throws {
        var written: [String] = []
        var folder = out
        if let out {
            written = try write(to: out, overwrite: force)
        } else if install {
            guard let data = UserDataDirectory.path() else {
                throw CertsFailure("neither XDG_DATA_HOME nor HOME is set, so there is no data folder for the CA: pass --out DIR")
            }
            folder = data
            written = try prepareDataDirectory(data)
        }
        var trusted: String?
        if install, let folder {
            trusted = try installCA(from: folder + "/ca.pem")
        } else if uninstall {
            trusted = try uninstallCA()
        }
        let serve = folder.map { "mockapns serve --cert \($0)/server.pem --key \($0)/server-key.pem" }
        if json {
            // Keys in alphabetical order: directory, files, installed or removed, serve.
            var members: [JSONValue.JSONMember] = []
            if install, let folder { members.append(.init("directory", .string(folder))) }
            members.append(.init("files", .array(written.map { .string($0) })))
            if let trusted { members.append(.init(install ? "installed" : "removed", .string(trusted))) }
            if install, let serve { members.append(.init("serve", .string(serve))) }
            print(JSONValue.object(members).jsonText())
        } else {
            for file in written { print("wrote \(file)") }
            if let trusted {
                let refreshed = trustStore == Self.systemTrustStore ? "system store updated" : "update that store's trust yourself"
                print(install ? "trusted \(trusted) (\(refreshed))" : "removed \(trusted)")
            }
            if install, let folder, let serve {
                print("""
                    This machine's CA and server certificate (localhost, 127.0.0.1, ::1) are in \(folder):
                      CA      \(folder)/ca.pem (its key, \(folder)/ca-key.pem, is readable by you only)
                      server  \(folder)/server.pem, \(folder)/server-key.pem
                    Serve with them:
                      \(serve)
                    (add --ca \(folder)/ca.pem to accept the client certificates in that folder instead of the bundled ones)
                    """)
            }
            if !written.isEmpty { print("Test-only credentials: never use them in production.") }
        }
    }

    /// Makes the user's credential set in `folder` unless a whole one is already there (kept unless --force, so
    /// certificates issued before stay trusted); returns the files written.
    private func prepareDataDirectory(_ folder: String) throws -> [String] {
        let needed = ["ca.pem", "ca-key.pem", "server.pem", "server-key.pem"]
        let complete = needed.allSatisfy { FileManager.default.fileExists(atPath: folder + "/" + $0) }
        if complete && !force { return [] }
        do {
            // Parents as usual (~/.local/share is shared with other programs); the folder holding the CA key is ours only.
            let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw CertsFailure("cannot create \(folder): \(error.localizedDescription)")
        }
        return try write(to: folder, overwrite: true)
    }

    private func write(to folder: String, overwrite: Bool) throws -> [String] {
        let files: [TestCredentialFactory.File]
        do {
            files = try TestCredentialFactory.makeStandardFiles(now: Int64(Date().timeIntervalSince1970))
        } catch {
            throw CertsFailure("could not make the credentials: \(error)")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if !overwrite {
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
        guard trustStore == Self.systemTrustStore else { return }
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
