import APNsCrypto
import Foundation
import MockAPNs

/// A folder holding a CA made for this mock (`serve --ca-dir DIR`): `ca.pem` and `ca-key.pem`, made on first use and
/// kept, so certificates issued at each start stay trusted by senders that took `ca.pem` once.
///
/// Unlike the bundled test CA, whose private key is public in the repository, a CA made here is this folder's own:
/// trusting it lets nobody else mint certificates a sender would accept.
struct CertificateAuthorityDirectory {
    /// The folder.
    let path: String

    /// The CA certificate a sender trusts.
    var certificatePath: String { path + "/ca.pem" }
    /// Its private key, readable by the owner only.
    var keyPath: String { path + "/ca-key.pem" }

    /// The CA kept in the folder, made first when there is none. Two instances starting at once on one folder (a
    /// shared volume) agree on one CA: the key is published with an exclusive link, and the one that loses the race
    /// waits for the winner's certificate.
    func loadOrCreate() throws(ConfigurationError) -> IssuedCertificate {
        let files = FileManager.default
        if !files.fileExists(atPath: keyPath) {
            do {
                try files.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .invalidCertificate("cannot create the CA folder \(path): \(error.localizedDescription)")
            }
            try create()
        }
        // The certificate follows the key by a rename; a second instance may look in between.
        for _ in 0..<100 where !files.fileExists(atPath: certificatePath) { usleep(50_000) }
        guard files.fileExists(atPath: certificatePath) else {
            throw .invalidCertificate("\(keyPath) exists but \(certificatePath) does not: remove the folder's ca-key.pem to make a new CA")
        }
        return try ServerIdentity.load(certificate: certificatePath, key: keyPath)
    }

    /// Makes a CA and publishes it: key first (exclusively), then the certificate.
    private func create() throws(ConfigurationError) {
        let authority: IssuedCertificate
        do {
            authority = try TestCredentialFactory.makeCertificateAuthority(
                commonName: "MockAPNs Local CA", notBefore: Int64(Date().timeIntervalSince1970) - TestCredentialFactory.secondsPerDay)
        } catch {
            throw .invalidCertificate("could not make a CA: \(error)")
        }
        let suffix = ".\(getpid()).tmp"
        let files = FileManager.default
        defer {
            try? files.removeItem(atPath: keyPath + suffix)
            try? files.removeItem(atPath: certificatePath + suffix)
        }
        do {
            try Data(authority.privateKeyPEM.utf8).write(to: URL(fileURLWithPath: keyPath + suffix))
            try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath + suffix)
            try Data(authority.certificatePEM.utf8).write(to: URL(fileURLWithPath: certificatePath + suffix))
        } catch {
            throw .invalidCertificate("cannot write the CA into \(path): \(error.localizedDescription)")
        }
        // link(2) fails when the name exists: only one instance publishes its key.
        guard link(keyPath + suffix, keyPath) == 0 else {
            if errno == EEXIST { return }
            throw .invalidCertificate("cannot write \(keyPath): \(String(cString: strerror(errno)))")
        }
        guard rename(certificatePath + suffix, certificatePath) == 0 else {
            throw .invalidCertificate("cannot write \(certificatePath): \(String(cString: strerror(errno)))")
        }
    }
}
