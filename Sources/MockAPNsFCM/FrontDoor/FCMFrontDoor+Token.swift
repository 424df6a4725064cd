import FCMModel
import JSON

extension FCMFrontDoor {
    /// `POST /token`: the JWT-bearer grant of a service account, checked as Google checks it (fcm-rules §2): the
    /// form and the JWT's shape, then RS256 under the trusted key whose id is the JWT's `kid`, issued by that key's
    /// `client_email`, and only then its audience, times and scope. Answers an access token for the account's
    /// project, or the RFC 6749 error body Google sends.
    func exchangeToken(contentType: String?, body: [UInt8], tooLarge: Bool) -> FCMHTTPAnswer {
        do throws(OAuthError) {
            guard !tooLarge else { throw OAuthError.invalidRequest("The request body is too large.") }
            let assertion = try OAuthAssertion.parse(formBody: body)
            guard let key = projects.key(id: assertion.keyID),
                  key.publicKey.verifyRS256(signature: assertion.signature, signedBytes: assertion.signingInput) else {
                throw OAuthError.invalidSignature
            }
            guard assertion.issuer == key.clientEmail else { throw OAuthError.accountNotFound }
            try assertion.check(now: nowSeconds)
            let token = accessTokens.issue(project: key.projectID, clientEmail: key.clientEmail, now: nowSeconds)
            return FCMHTTPAnswer(status: 200, json: OAuthAssertion.tokenAnswer(accessToken: token,
                                                                               expiresIn: FCMAccessTokens.lifetimeSeconds))
        } catch {
            return FCMHTTPAnswer(error)
        }
    }
}

extension FCMHTTPAnswer {
    /// An OAuth error: its status with `{"error", "error_description"}`.
    init(_ error: OAuthError) {
        self.init(status: error.httpStatus, json: error.json)
    }
}
