/// How the provider authenticated the request: nothing, a bearer token, or the connection's client certificate.
///
/// The server builds this from the connection and the `authorization` header. A client certificate wins:
/// APNs ignores `authorization` on certificate connections.
public enum ProviderCredential: Sendable, Hashable {
    /// No `authorization` header and no client certificate → `403 MissingProviderToken`. (For a header that is
    /// empty or not of the `bearer` scheme, pushy's mock also answers `MissingProviderToken`; what APNs answers is
    /// not documented, so the server may map such a header here or to `.malformedToken`.)
    case none
    /// An `authorization: bearer …` header whose token is not three base64url parts holding JSON
    /// → `403 InvalidProviderToken`.
    case malformedToken
    /// A decoded bearer token and the crypto layer's findings about it.
    case token(ProviderTokenFacts)
    /// The connection's client certificate.
    case certificate(CertificateFacts)

    /// The token from an `authorization` header value: the text after a case-insensitive `bearer `, trimmed;
    /// `nil` when the header is not of the bearer scheme or the token is empty.
    public static func bearerToken(fromAuthorization value: String) -> String? {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var rest = Substring(value).drop(while: isBlank)
        guard rest.count > 7, rest.prefix(7).lowercased() == "bearer " else { return nil }
        rest = rest.dropFirst(7).drop(while: isBlank)
        while let last = rest.last, isBlank(last) { rest.removeLast() }
        return rest.isEmpty ? nil : String(rest)
    }
}
