import APNsModel

/// A connection's last `authorization` value, the credential it gave and how records show that credential
/// (`PipelineConnectionState.credential`). One object, so that a request repeating the value costs a retain of it
/// rather than copies of the credential's and the summary's many reference-counted fields.
final class CredentialMemo {
    let authorization: String?
    let credential: ProviderCredential
    let authentication: RecordedRequest.Authentication

    init(authorization: String?, credential: ProviderCredential, authentication: RecordedRequest.Authentication) {
        self.authorization = authorization
        self.credential = credential
        self.authentication = authentication
    }
}
