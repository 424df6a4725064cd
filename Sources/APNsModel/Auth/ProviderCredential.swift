/// How the provider authenticated the request: nothing, a bearer token, or the connection's client certificate.
///
/// The server builds this from the connection and the `authorization` header. A client certificate wins:
/// APNs ignores `authorization` on certificate connections.
public enum ProviderCredential: Sendable, Hashable {
    /// No `authorization` header and no client certificate → `403 MissingProviderToken`. The server should also
    /// use this for an `authorization` header that is empty or not of the `bearer` scheme (pushy's mock does).
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
        let trimmed = value.drop(while: { $0 == " " })
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).trimmingSpaces()
        return token.isEmpty ? nil : String(token)
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
