import APNsCrypto
import Foundation
import JSON
import MockAPNs
import MockAPNsHTTP2
import XCTest
@testable import MockAPNsFCM

/// A front door of its own on a free port of 127.0.0.1 for the wire tests: a fresh mock, the FCM listener presenting
/// a certificate for Google's names from a CA in `directory`, run by a service group until ``stop()``.
struct FCMTestListener {
    let mock: Mock
    let frontDoor: FCMFrontDoor
    let group: BackgroundServiceGroup
    /// `https://127.0.0.1:PORT`.
    let url: String
    /// The CA (PEM file) the listener's certificate chains to.
    let ca: String

    /// Starts a listener whose front door has `configuration`.
    static func start(directory: String, configuration: FCMConfiguration = FCMConfiguration()) async throws -> FCMTestListener {
        let mock = try Mock(configuration: MockConfiguration())
        let frontDoor = try FCMFrontDoor(mock: mock, configuration: configuration, logger: .init(label: "test"))
        let identity = try ServerIdentity.issue(names: FCMIdentity.googleNames, authorityDirectory: directory + "/ca")
        let ca = try XCTUnwrap(identity.certificateAuthorityPath)
        let listener = try FCMListener(frontDoor: frontDoor, role: .own, host: "127.0.0.1", port: 0,
                                       identity: FCMIdentity(certificateChainPEM: identity.certificateChainPEM,
                                                             privateKeyPEM: identity.privateKeyPEM, certificateAuthorityPath: ca),
                                       logger: .init(label: "test"))
        let group = BackgroundServiceGroup([listener], logger: .init(label: "test"))
        let url = "https://127.0.0.1:\(try await listener.waitUntilListening())"
        return FCMTestListener(mock: mock, frontDoor: frontDoor, group: group, url: url, ca: ca)
    }

    /// Stops the listener, then the mock.
    func stop() async {
        await group.stop()
        mock.shutdown()
    }

    /// An access token for `account` from the front door's OAuth grant, asked for as google-auth asks.
    func bearer(_ account: ServiceAccount) throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        let header = JSONValue.object([.init("typ", .string("JWT")), .init("alg", .string("RS256")),
                                       .init("kid", .string(account.privateKeyID))]).jsonText()
        let claims = JSONValue.object([
            .init("iss", .string(account.clientEmail)), .init("scope", .string("https://www.googleapis.com/auth/cloud-platform")),
            .init("aud", .string(ServiceAccount.googleTokenURI)), .init("iat", .integer(now)), .init("exp", .integer(now + 3600)),
        ]).jsonText()
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = Base64URL.encode(try RSAPrivateKey(pem: account.privateKeyPEM).signRS256(Array(input.utf8)))
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(input).\(signature)"
        let answer = frontDoor.exchangeToken(contentType: nil, body: Array(form.utf8), tooLarge: false)
        return try XCTUnwrap(try JSONValue.parse(answer.body)["access_token"]?.stringValue, String(decoding: answer.body, as: UTF8.self))
    }
}
