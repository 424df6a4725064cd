import APNsModel
import Foundation
import PeerSupport
import XCTest

/// `mockapns token`: a fresh ES256 provider token for a .p8 key.
final class InspectTokenTests: LeakCheckedTestCase {
    /// The repository's bundled test key.
    private var keyPath: String {
        RepoPaths.cert("AuthKey_TESTKEY001.p8")
    }

    private func segment(_ text: Substring) throws -> JSONValue {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return try JSONValue.parse(Array(try XCTUnwrap(Data(base64Encoded: base64))))
    }

    func testPrintsASignedTokenForTheKey() async throws {
        let before = Int64(Date().timeIntervalSince1970)
        let result = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        XCTAssertEqual(parts.count, 3, token)
        let header = try segment(parts[0])
        let claims = try segment(parts[1])
        XCTAssertEqual(header["alg"]?.stringValue, "ES256")
        XCTAssertEqual(header["kid"]?.stringValue, "TESTKEY001")
        XCTAssertEqual(claims["iss"]?.stringValue, "TESTTEAM01")
        let iat = try XCTUnwrap(claims["iat"]?.integerValue)
        XCTAssertTrue((before - 5...before + 60).contains(iat), "iat \(iat) is not now")
        XCTAssertEqual(try XCTUnwrap(Data(base64Encoded: parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "==")).count, 64, "ES256 JOSE signatures are 64 bytes (R‖S)")
    }

    func testJSONAndExplicitIssuedAt() async throws {
        let result = try await InspectCLI.run(["token", "--key-file", "TESTTEAM01:TESTKEY001:\(keyPath)", "--issued-at", "1795442400", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try result.json()
        XCTAssertEqual(json["issued_at"]?.integerValue, 1_795_442_400)
        let token = try XCTUnwrap(json["token"]?.stringValue)
        XCTAssertEqual(try segment(token.split(separator: ".")[1])["iat"]?.integerValue, 1_795_442_400)
    }

    func testBadKeyArgumentsExit2() async throws {
        let malformed = try await InspectCLI.run(["token", "--key-file", "just-a-path.p8"])
        XCTAssertEqual(malformed.status, 2)
        XCTAssertTrue(malformed.stderr.contains("--key-file needs TEAMID:KEYID:PATH"), malformed.stderr)
        let missing = try await InspectCLI.run(["token", "--key-file", "T:K:/nonexistent.p8"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("Cannot read /nonexistent.p8"), missing.stderr)
        let notAKey = try await InspectCLI.run(["token", "--key-file", "T:K:\(#filePath)"])
        XCTAssertEqual(notAKey.status, 2)
        XCTAssertTrue(notAKey.stderr.contains("not a PEM P-256 private key"), notAKey.stderr)
    }
}
