import FCMModel
import Foundation
import JSON

/// One `Fixtures/fcm` case (format: `Fixtures/fcm/README.md`), with the values the model test gives the
/// placeholders a server runner fills with its own.
struct FCMFixture {
    let file: String
    let json: JSONValue

    /// `Fixtures/fcm`, found from this file's path (not through TestSupport, which this target does not link).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fcm")

    /// Every case file, in name order.
    static func all() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    init(url: URL) throws {
        file = url.lastPathComponent
        json = try JSONValue.parse(Array(try Data(contentsOf: url)))
    }

    var name: String { json["name"]?.stringValue ?? "" }
    var rule: String { json["rule"]?.stringValue ?? "" }
    var expect: JSONValue { json["expect"] ?? .object([]) }

    // MARK: The placeholders' values in the model test

    static let now: Int64 = 1_767_225_600
    static let registration = FCMRegistrationToken.mint(randomBytes: (0..<FCMRegistrationToken.randomByteCount).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    static let senderID = "123456789012"
    static let apnsToken = "5e7a2b1c9d4f0e3a6b8c7d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"
    static let messageID: UInt64 = 1_767_225_600_000_000
    static let clientEmail = "firebase-adminsdk-test@mockapns-test.iam.gserviceaccount.com"
    static let keyID = "0123456789abcdef0123456789abcdef01234567"

    var project: String { json["project"]?.stringValue ?? "mockapns-test" }
    var device: JSONValue? { json["device"] }
    var bundleID: String { device?["bundle_id"]?.stringValue ?? "com.example.app" }
    var deviceProject: String { device?["project"]?.stringValue ?? project }
    var deviceTopics: Set<String> { Set(device?["topics"]?.arrayElements?.compactMap(\.stringValue) ?? []) }

    /// `value` with every placeholder replaced.
    func substituted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text):
            if text.hasPrefix("$NOW") {
                let rest = text.dropFirst(4)
                if rest.isEmpty { return .integer(Self.now) }
                if let offset = Int64(rest.hasPrefix("+") ? String(rest.dropFirst()) : String(rest)) { return .integer(Self.now + offset) }
            }
            let replacements = [
                ("$TOKEN", Self.registration.token), ("$FID", Self.registration.fid), ("$PROJECT", project),
                ("$SENDER_ID", Self.senderID), ("$BUNDLE_ID", bundleID), ("$APNS_TOKEN", Self.apnsToken),
                ("$CLIENT_EMAIL", Self.clientEmail), ("$KID", Self.keyID),
            ]
            var out = text
            for (name, replacement) in replacements { out = out.replacingOccurrences(of: name, with: replacement) }
            return .string(out)
        case .array(let elements):
            return .array(elements.map(substituted))
        case .object(let members):
            return .object(members.map { .init($0.key, substituted($0.value)) })
        default:
            return value
        }
    }

    /// The request body's bytes.
    var body: [UInt8] {
        if let text = json["body_text"]?.stringValue { return Array(text.utf8) }
        return Array(substituted(json["body"] ?? .object([])).jsonText().utf8)
    }

    /// The token endpoint's form body, with a JWT built from `grant` (its signature any bytes: the model does not
    /// verify signatures).
    var grantForm: [UInt8] {
        let grant = json["grant"] ?? .object([])
        let header = substituted(grant["header"] ?? .object([])).jsonText()
        let claims = substituted(grant["claims"] ?? .object([])).jsonText()
        let jwt = Base64.encodedString(Array(header.utf8), alphabet: .url, padded: false) + "."
            + Base64.encodedString(Array(claims.utf8), alphabet: .url, padded: false) + "."
            + Base64.encodedString(Array("not-checked-here".utf8), alphabet: .url, padded: false)
        let form = grant["form"]?.objectMembers
            ?? [.init("grant_type", .string(OAuthAssertion.jwtBearerGrantType)), .init("assertion", .string("$JWT"))]
        let text = form.map { member in
            let value = (member.value.stringValue ?? "").replacingOccurrences(of: "$JWT", with: jwt)
            return FormURLEncoding.encode(member.key) + "=" + FormURLEncoding.encode(value)
        }.joined(separator: "&")
        return Array(text.utf8)
    }
}
