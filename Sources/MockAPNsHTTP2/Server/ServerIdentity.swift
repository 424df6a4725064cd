import APNsCrypto
import APNsModel
import Foundation
import MockAPNs

/// The TLS identity the mock presents: its certificate and key as PEM, and the CA a sender must trust for it.
///
/// A certificate file names the hosts it was made for, so the bundled `server.pem` (localhost, 127.0.0.1, ::1)
/// fails verification for a sender that reaches the mock by another name (a compose service, a Kubernetes Service,
/// a CI service container). With ``ListenerConfiguration/TLSIdentity/names`` or
/// ``ListenerConfiguration/TLSIdentity/certificateAuthorityDirectory`` a fresh server certificate is issued at start for
/// those names plus the loopback ones, signed by the bundled test CA (which senders already trust) or by a CA made
/// once and kept in that folder (mkcert-style: nothing public can mint certificates it signs).
public struct ServerIdentity: Sendable {
    /// The server certificate chain, PEM.
    public var certificateChainPEM: String
    /// Its private key, PEM.
    public var privateKeyPEM: String
    /// The CA certificate (PEM file) a sender verifies the mock with; nil when the certificate came from `--cert`,
    /// whose issuer the mock does not know.
    public var certificateAuthorityPath: String?

    /// The names every issued certificate carries, so loopback senders keep working beside the named ones.
    public static let loopbackNames = ["localhost", "127.0.0.1", "::1"]

    /// The identity `configuration` asks for, with Apple's names beside its own under `appleHosts`; `credentials`
    /// are the bundled ones (nil when every file was given).
    static func resolve(_ configuration: ListenerConfiguration.TLSIdentity, appleHosts: Bool,
                        credentials: BundledCredentials?) throws(ConfigurationError) -> ServerIdentity {
        let issues = !configuration.names.isEmpty || configuration.certificateAuthorityDirectory != nil || appleHosts
        guard issues else {
            guard let certificate = configuration.certificatePath ?? credentials?.serverCertificatePath,
                  let key = configuration.privateKeyPath ?? credentials?.serverKeyPath else {
                throw .invalidCertificate("no server certificate: pass --cert and --key, or set MOCKAPNS_CERTS_DIR")
            }
            return ServerIdentity(
                certificateChainPEM: try Mock.readText(certificate), privateKeyPEM: try Mock.readText(key),
                certificateAuthorityPath: configuration.certificatePath == nil ? credentials?.caPath : nil)
        }
        if configuration.certificatePath != nil || configuration.privateKeyPath != nil {
            throw .invalidCertificate("--cert/--key give a certificate of your own; --tls-name and --ca-dir issue one: pick one way")
        }
        for name in configuration.names where !Self.isHostName(name) {
            throw .invalidCertificate("--tls-name \"\(name)\" is not a host name or an IP address (letters, digits, '-' and '.', or an IP literal)")
        }
        let authority: IssuedCertificate
        let authorityPath: String
        if appleHosts, configuration.certificateAuthorityDirectory == nil {
            // Anyone with the repository has the bundled CA's key: a certificate for Apple's names signed by it would
            // let them impersonate APNs to every machine that trusts it.
            throw .invalidCertificate("--apple-hosts never uses the bundled test CA (its private key is public): give --ca-dir DIR, a folder for a CA of this machine's own")
        }
        if let directory = configuration.certificateAuthorityDirectory {
            authority = try CertificateAuthorityDirectory(path: directory).loadOrCreate()
            authorityPath = CertificateAuthorityDirectory(path: directory).certificatePath
        } else {
            guard let credentials else { throw .invalidCertificate("--tls-name needs the bundled test CA (set MOCKAPNS_CERTS_DIR) or --ca-dir") }
            authority = try Self.load(certificate: credentials.caPath, key: credentials.directory + "/ca-key.pem")
            authorityPath = credentials.caPath
        }
        let appleNames = appleHosts ? AppleHost.names : []
        return try issue(names: appleNames + configuration.names, authority: authority, authorityPath: authorityPath)
    }

    /// A certificate for `names` plus the loopback ones, signed by the CA kept in `authorityDirectory` (made there
    /// first when there is none): how another front door (the FCM one, for Google's names) is trusted through the
    /// same private CA as `--apple-hosts`.
    public static func issue(names: [String], authorityDirectory: String) throws(ConfigurationError) -> ServerIdentity {
        let folder = CertificateAuthorityDirectory(path: authorityDirectory)
        return try issue(names: names, authority: try folder.loadOrCreate(), authorityPath: folder.certificatePath)
    }

    /// A fresh certificate for `names` plus the loopback ones (each once, lowercased), signed by `authority`.
    private static func issue(names given: [String], authority: IssuedCertificate,
                              authorityPath: String) throws(ConfigurationError) -> ServerIdentity {
        var names: [String] = []
        for name in given + loopbackNames where !names.contains(name.lowercased()) { names.append(name.lowercased()) }
        let now = Int64(Date().timeIntervalSince1970)
        do {
            // Valid from a day back, so a sender whose clock is a little behind the mock's still accepts it.
            let server = try TestCredentialFactory.makeServerCertificate(
                hosts: names, issuer: authority, notBefore: now - TestCredentialFactory.secondsPerDay, days: 825)
            return ServerIdentity(certificateChainPEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM,
                                  certificateAuthorityPath: authorityPath)
        } catch {
            throw .invalidCertificate("could not issue a server certificate for \(names.joined(separator: ", ")): \(error)")
        }
    }

    /// A CA certificate and its key from two PEM files.
    static func load(certificate: String, key: String) throws(ConfigurationError) -> IssuedCertificate {
        let certificatePEM = try Mock.readText(certificate)
        let keyPEM = try Mock.readText(key)
        do {
            return try IssuedCertificate(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
        } catch {
            throw .invalidCertificate("\(certificate) with \(key): \(error)")
        }
    }

    /// Whether `name` can stand in a certificate's subject alternative names: a DNS name (labels of letters, digits
    /// and '-', an optional leading `*.`) or an IP literal.
    public static func isHostName(_ name: String) -> Bool {
        if name.contains(":") { return name.utf8.allSatisfy { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || isHexDigit($0) } }
        let labels = (name.hasPrefix("*.") ? String(name.dropFirst(2)) : name).split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 253, !labels.isEmpty else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { isHexDigit($0) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
