import APNsCrypto
import APNsModel
import Foundation
import MockAPNs

/// The bundled test credentials (`certs/`), loaded once: the keys a fuzzed token is checked against, the
/// key that signs structured tokens, and certificate facts a script can pick with `@cert NAME`.
public enum FuzzCredentials {
    /// The clock every target uses unless a script says otherwise: 2027-01-15 (seeds mint tokens for it).
    public static let now: Int64 = 1_800_000_000

    /// `certs/`, found from this file's place in the repository (or `MOCKAPNS_CERTS_DIR`).
    public static let credentials: BundledCredentials = {
        do { return try BundledCredentials.locate(sourceFile: #filePath) } catch { fatalError("fuzz setup: \(error)") }
    }()

    /// Every key in `certs/keys.json`, as the server trusts them by default.
    public static let keys: TrustedKeyStore = {
        var store = TrustedKeyStore()
        do { try store.add(keysJSONAt: credentials.keysPath) } catch { fatalError("fuzz setup: \(error)") }
        return store
    }()

    /// TESTKEY001 of TESTTEAM01, which signs the structured tokens of the JWT target.
    public static let signingKey: P256PrivateKey = {
        do {
            return try P256PrivateKey(contentsOfFile: credentials.directory + "/AuthKey_TESTKEY001.p8")
        } catch {
            fatalError("fuzz setup: \(error)")
        }
    }()

    /// Client certificates as the TLS layer would describe them, by the name a script gives after `@cert`.
    public static let certificates: [String: CertificateFacts] = {
        let topics = [
            CertificateTopic(name: "com.example.app", kind: "app"),
            CertificateTopic(name: "com.example.app.voip", kind: "voip"),
            CertificateTopic(name: "com.example.app.complication", kind: "complication"),
        ]
        return [
            "client-app": CertificateFacts(trusted: true, subjectUID: "com.example.app", topics: topics),
            "client-dev-only": CertificateFacts(trusted: true, subjectUID: "com.example.app", topics: topics,
                                                allowsDevelopment: true, allowsProduction: false),
            "client-single-topic": CertificateFacts(trusted: true, subjectUID: "com.example.single"),
            "client-untrusted": CertificateFacts(trusted: false, subjectUID: "com.example.app", topics: topics),
            "client-expired": CertificateFacts(trusted: true, expired: true, subjectUID: "com.example.app"),
        ]
    }()
}
