import APNsModel
import MockAPNs

/// The request decider: a `RequestScript` (environment, clock, credential, then up to eight requests on one
/// connection) decided in order, as the server would, with the bundled keys trusted.
///
/// Beyond "does not crash": a verdict depends only on the request, the context and the connection's token state,
/// so every request is decided twice, on two connection states kept in step, and the verdicts must agree; and
/// every status is an HTTP status APNs answers with.
public enum DeciderFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let script = RequestScript(bytes)
        let authenticator = ProviderTokenAuthenticator(keys: FuzzCredentials.keys, trustAnySignature: false)
        var first = TokenConnectionState()
        var second = TokenConnectionState()
        for step in script.steps {
            let request = step.request
            let credential: ProviderCredential = script.certificate.map { .certificate($0) }
                ?? authenticator.credential(authorization: request.value("authorization"))
            let context = DecisionContext(environment: script.environment, credential: credential, now: step.now)
            let verdict = RequestDecider.decide(request, context: context, connection: &first)
            let again = RequestDecider.decide(request, context: context, connection: &second)
            precondition(verdict == again, "the same request decided twice differs: \(verdict) vs \(again) for \(request)")
            precondition((200...599).contains(verdict.status), "verdict status out of range: \(verdict.status)")
            if verdict.accepted != nil {
                first.recordSuccess()
                second.recordSuccess()
            }
        }
    }
}
