import APNsModel
import MockAPNs

/// The request decider: a `RequestScript` (environment, clock, credential, then up to eight requests on one
/// connection) decided in order, as the server would, with the bundled keys trusted.
///
/// Beyond "does not crash": the connection's `RepeatMemo` must not change any verdict (its contract), so
/// every request is decided twice, on two connection states, with the memo and without it.
public enum DeciderFuzzTarget {
    /// Runs one input.
    public static func run(_ bytes: [UInt8]) {
        let script = RequestScript(bytes)
        let authenticator = ProviderTokenAuthenticator(keys: FuzzCredentials.keys, trustAnySignature: false)
        var remembering = TokenConnectionState()
        var forgetting = TokenConnectionState()
        var memo = RepeatMemo()
        for step in script.steps {
            let request = step.request
            let credential: ProviderCredential = script.certificate.map { .certificate($0) }
                ?? authenticator.credential(authorization: request.value("authorization"))
            let context = DecisionContext(environment: script.environment, credential: credential, now: step.now)
            let verdict = RequestDecider.decide(request, context: context, connection: &remembering, memo: &memo)
            let fresh = RequestDecider.decide(request, context: context, connection: &forgetting)
            precondition(verdict == fresh, "RepeatMemo changed a verdict: \(verdict) vs \(fresh) for \(request)")
            precondition((200...599).contains(verdict.status), "verdict status out of range: \(verdict.status)")
            if verdict.accepted != nil {
                remembering.recordSuccess()
                forgetting.recordSuccess()
            }
        }
    }
}
