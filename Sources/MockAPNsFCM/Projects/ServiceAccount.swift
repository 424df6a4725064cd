import APNsCrypto
import Foundation
import JSON

/// A Google service-account key file, as the Cloud console hands it out and as firebase-admin's
/// `credentials.Certificate` and google-auth read it (fcm-rules §2): the fields a sender needs, in Google's order.
///
/// The mock makes one for a project (``make(project:)``) and trusts its key from then on; a user's own file is
/// trusted by its public key alone (``ServiceAccountKey/init(fileText:)``).
public struct ServiceAccount: Sendable {
    /// `project_id`.
    public var projectID: String
    /// `private_key_id`: the `kid` of the JWTs the key signs.
    public var privateKeyID: String
    /// `client_email`: the JWTs' `iss`.
    public var clientEmail: String
    /// `client_id`.
    public var clientID: String
    /// `private_key`: PKCS#8 PEM.
    public var privateKeyPEM: String
    /// `token_uri`: where google-auth posts the grant (the host is Google's unless a user points it elsewhere).
    public var tokenURI: String

    /// Google's token endpoint, and the `aud` every grant carries whatever `token_uri` says.
    public static let googleTokenURI = "https://oauth2.googleapis.com/token"

    /// A fresh service account for `project`, with a new 2048-bit RSA key.
    public static func make(project: String, tokenURI: String = googleTokenURI) throws -> ServiceAccount {
        let key = try RSAPrivateKey.generate()
        var random = SystemRandomNumberGenerator()
        let keyID = randomHex(bytes: 20)
        let clientID = "1" + (0..<20).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
        return ServiceAccount(projectID: project, privateKeyID: keyID,
                              clientEmail: "firebase-adminsdk-mock@\(project).iam.gserviceaccount.com",
                              clientID: clientID, privateKeyPEM: try key.pkcs8PEM(), tokenURI: tokenURI)
    }

    /// The file's JSON, as Google writes it.
    public var json: JSONValue {
        let email = clientEmail.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? clientEmail
        return .object([
            .init("type", .string("service_account")),
            .init("project_id", .string(projectID)),
            .init("private_key_id", .string(privateKeyID)),
            .init("private_key", .string(privateKeyPEM)),
            .init("client_email", .string(clientEmail)),
            .init("client_id", .string(clientID)),
            .init("auth_uri", .string("https://accounts.google.com/o/oauth2/auth")),
            .init("token_uri", .string(tokenURI)),
            .init("auth_provider_x509_cert_url", .string("https://www.googleapis.com/oauth2/v1/certs")),
            .init("client_x509_cert_url", .string("https://www.googleapis.com/robot/v1/metadata/x509/\(email)")),
            .init("universe_domain", .string("googleapis.com")),
        ])
    }

    /// The file's text: pretty JSON and a newline, as the console's download.
    public var fileText: String { json.prettyText() + "\n" }
}

/// What the mock keeps of a service account to check the grants it signs: the project, the client email and the
/// public key, under the key's id.
public struct ServiceAccountKey: Sendable {
    /// The project the account belongs to.
    public var projectID: String
    /// `private_key_id`.
    public var keyID: String
    /// `client_email`.
    public var clientEmail: String
    /// The public half of `private_key`.
    public var publicKey: RSAPublicKey

    /// The key of an account the mock made.
    public init(_ account: ServiceAccount) throws {
        self.projectID = account.projectID
        self.keyID = account.privateKeyID
        self.clientEmail = account.clientEmail
        self.publicKey = try RSAPublicKey(pem: account.privateKeyPEM)
    }

    /// The key of a service-account file's text; throws a sentence naming the field that is missing or wrong.
    public init(fileText: String, path: String) throws(FCMSetupError) {
        let json: JSONValue
        do { json = try JSONValue.parse(fileText) } catch {
            throw .badServiceAccount(path: path, problem: "it is not JSON (\(error))")
        }
        guard json["type"]?.stringValue == "service_account" else {
            throw .badServiceAccount(path: path, problem: "\"type\" is not \"service_account\"")
        }
        for field in ["project_id", "private_key_id", "private_key", "client_email"] where (json[field]?.stringValue ?? "").isEmpty {
            throw .badServiceAccount(path: path, problem: "\"\(field)\" is missing")
        }
        projectID = json["project_id"]!.stringValue!
        keyID = json["private_key_id"]!.stringValue!
        clientEmail = json["client_email"]!.stringValue!
        do {
            publicKey = try RSAPublicKey(pem: json["private_key"]!.stringValue!)
        } catch {
            throw .badServiceAccount(path: path, problem: "\"private_key\" is not an RSA key in PEM (\(error))")
        }
    }
}
