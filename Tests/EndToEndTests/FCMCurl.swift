import APNsCrypto
import Foundation
import JSON
import PeerSupport
import XCTest

/// What the FCM suites send with: curl over TLS to the front door (its exit status, HTTP status, body and HTTP
/// version), and the OAuth grant google-auth makes from a service-account file.
struct FCMCurl {
    /// Where curl's answer bodies go.
    let directory: String

    /// curl `method url` with `headers` and `body`: (exit status, HTTP status, body, HTTP version).
    func run(_ url: String, http: String, headers: [String] = [], body: String? = nil, ca: String,
             method: String = "POST") throws -> (exit: Int32, status: Int, body: String, version: String) {
        let output = directory + "/body-\(UUID().uuidString)"
        var arguments = ["-sS", http, "--max-time", "20", "--cacert", ca, "-o", output, "-w", "%{http_code} %{http_version}", "-X", method]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        let run = try PeerProcess.run("/usr/bin/curl", arguments + [url], timeout: 30)
        let parts = run.stdout.split(separator: " ")
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (run.status, Int(parts.first ?? "") ?? 0, text, parts.count > 1 ? String(parts[1]) : "")
    }

    /// The JWT-bearer grant google-auth posts for the service-account file at `path`.
    static func grantBody(serviceAccount path: String) throws -> String {
        let account = try JSONValue.parse(Array(try XCTUnwrap(FileManager.default.contents(atPath: path))))
        let now = Int64(Date().timeIntervalSince1970)
        let header = JSONValue.object([.init("typ", .string("JWT")), .init("alg", .string("RS256")),
                                       .init("kid", try XCTUnwrap(account["private_key_id"]))]).jsonText()
        let claims = JSONValue.object([
            .init("iss", try XCTUnwrap(account["client_email"])),
            .init("scope", .string("https://www.googleapis.com/auth/firebase.messaging")),
            .init("aud", .string("https://oauth2.googleapis.com/token")), .init("iat", .integer(now)), .init("exp", .integer(now + 3600)),
        ]).jsonText()
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let key = try RSAPrivateKey(pem: try XCTUnwrap(account["private_key"]?.stringValue))
        return "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + input + "."
            + Base64URL.encode(try key.signRS256(Array(input.utf8)))
    }

    /// One notification to a new iOS registration of `mockapns-test`, sent with a fresh access token over HTTP/2:
    /// the registration token and the message's name.
    func sendNotification(ready: JSONValue, control: String, title: String) throws -> (token: String, name: String) {
        let fcm = try XCTUnwrap(ready["fcm_url"]?.stringValue)
        let ca = try XCTUnwrap(ready["fcm_ca_file"]?.stringValue)
        let account = try XCTUnwrap(ready["fcm_service_account"]?.stringValue)
        let registered = try PeerProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "-H", "content-type: application/json",
                                                               "--data-binary", #"{"project":"mockapns-test","platform":"ios","bundle_id":"com.example.app"}"#,
                                                               control + "/api/v1/fcm/registrations"], timeout: 20)
        let token = try XCTUnwrap(try JSONValue.parse(registered.stdout)["token"]?.stringValue, registered.stdout)
        let exchanged = try run(fcm + "/token", http: "--http2", headers: ["content-type: application/x-www-form-urlencoded"],
                                body: try Self.grantBody(serviceAccount: account), ca: ca)
        let bearer = try XCTUnwrap(try JSONValue.parse(exchanged.body)["access_token"]?.stringValue, exchanged.body)
        let message = JSONValue.object([.init("message", .object([
            .init("token", .string(token)),
            .init("notification", .object([.init("title", .string(title)), .init("body", .string("From FCM"))])),
        ]))]).jsonText()
        let sent = try run(fcm + "/v1/projects/mockapns-test/messages:send", http: "--http2",
                           headers: ["authorization: Bearer " + bearer, "content-type: application/json"], body: message, ca: ca)
        return (token, try XCTUnwrap(try JSONValue.parse(sent.body)["name"]?.stringValue, sent.body))
    }
}
