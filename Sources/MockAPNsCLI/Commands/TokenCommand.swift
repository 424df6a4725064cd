import APNsCrypto
import APNsModel
import ArgumentParser
import Foundation
import MockAPNs

/// `mockapns token [--key-file TEAMID:KEYID:PATH]`: a fresh ES256 provider token (the bundled test key by default), e.g. for curl:
/// `curl --http2 -H "authorization: bearer $(mockapns token --key-file …)" …`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh ES256 provider token (JWT) for a .p8 key.",
        discussion: "Exit status: 0 ok, 2 usage error or unreadable key."
    )

    @Option(name: .customLong("key-file"), help: ArgumentHelp(
        "The signing key as TEAMID:KEYID:PATH to a .p8 file (default: the bundled test key TESTTEAM01:TESTKEY001, as send uses).",
        valueName: "team:key:path"))
    var keyFile: String?

    @Option(name: .customLong("issued-at"), help: ArgumentHelp("The iat claim in epoch seconds (default: now).", valueName: "seconds"))
    var issuedAt: Int64?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            let (teamID, keyID, path) = try Self.split(keyFile ?? Self.bundledKeyFile())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InspectError.unreadable(path: path, reason: "no such file, or not readable")
            }
            let key: P256PrivateKey
            do {
                key = try P256PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self))
            } catch {
                throw InspectError.unreadable(path: path, reason: "it is not a PEM P-256 private key (a .p8 from Apple or `mockapns certs`): \(error)")
            }
            let iat = issuedAt ?? Int64(Date().timeIntervalSince1970)
            let token: String
            do {
                token = try JWTSigner.makeToken(teamID: teamID, keyID: keyID, issuedAt: iat, key: key)
            } catch {
                throw InspectError.unreadable(path: path, reason: "signing failed: \(error)")
            }
            if output.json {
                output.printJSON(.object([
                    .init("token", .string(token)), .init("team_id", .string(teamID)),
                    .init("key_id", .string(keyID)), .init("issued_at", .integer(iat)),
                ]))
            } else {
                StandardStreams.write(token + "\n")
            }
            return true
        }
    }

    /// The bundled test key that `serve` trusts by default, as `TEAMID:KEYID:PATH`.
    static func bundledKeyFile() throws(InspectError) -> String {
        do {
            let credentials = try BundledCredentials.locate()
            return "TESTTEAM01:TESTKEY001:" + credentials.directory + "/AuthKey_TESTKEY001.p8"
        } catch {
            throw .usage("no --key-file given and the bundled test key was not found (\(error)); pass --key-file TEAMID:KEYID:PATH.")
        }
    }

    /// `TEAMID:KEYID:PATH` (the path may itself contain colons).
    static func split(_ text: String) throws(InspectError) -> (String, String, String) {
        guard let argument = KeyFileArgument(text) else {
            throw .usage("--key-file needs TEAMID:KEYID:PATH, e.g. --key-file ABCDE12345:KEY1234567:AuthKey.p8; got '\(text)'.")
        }
        return (argument.teamID, argument.keyID, argument.path)
    }
}
