import APNsCrypto
import APNsModel
import ArgumentParser
import Foundation

/// `mockapns token --key-file TEAMID:KEYID:PATH`: a fresh ES256 provider token, e.g. for curl:
/// `curl --http2 -H "authorization: bearer $(mockapns token --key-file …)" …`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh ES256 provider token (JWT) for a .p8 key.",
        discussion: "Exit status: 0 ok, 2 usage error or unreadable key."
    )

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The signing key as TEAMID:KEYID:PATH to a .p8 file.", valueName: "team:key:path"))
    var keyFile: String

    @Option(name: .customLong("issued-at"), help: ArgumentHelp("The iat claim in epoch seconds (default: now).", valueName: "seconds"))
    var issuedAt: Int64?

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await InspectRun.run {
            let (teamID, keyID, path) = try Self.split(keyFile)
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

    /// `TEAMID:KEYID:PATH` (the path may itself contain colons).
    static func split(_ text: String) throws(InspectError) -> (String, String, String) {
        guard let argument = KeyFileArgument(text) else {
            throw .usage("--key-file needs TEAMID:KEYID:PATH, e.g. --key-file ABCDE12345:KEY1234567:AuthKey.p8; got '\(text)'.")
        }
        return (argument.teamID, argument.keyID, argument.path)
    }
}
