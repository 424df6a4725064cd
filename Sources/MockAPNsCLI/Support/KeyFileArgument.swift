/// A `--key-file TEAMID:KEYID:PATH` value as `token` and `send` take it: the path may itself contain colons.
/// (`serve --key-file` adds an optional `:environment` and is parsed by `TrustedKeyStore`.)
struct KeyFileArgument {
    var teamID: String
    var keyID: String
    var path: String

    /// Nil unless the text has three non-empty parts.
    init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
        (teamID, keyID, path) = (parts[0], parts[1], parts[2])
    }
}
