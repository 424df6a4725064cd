/// The one place where a request meets every APNs rule, in one fixed order, and gets a `Verdict`.
///
/// Order, and why (the first failing rule answers; APNs returns one reason per request):
/// 1. **Route** (`BadPath`, `MethodNotAllowed`, `MissingDeviceToken`): nothing else means anything until the
///    endpoint is known, and the endpoint decides which rules follow. A route the port does not serve (channel
///    management on a push host, a push on a channel-management host: ``ServedAPIs``) is `BadPath` too.
/// 2. **Duplicate headers** (`DuplicateHeaders`): a request with two `authorization` or two `apns-topic`
///    headers is ambiguous, so it is refused before any header is read.
/// 3. **Credential**: no credential → `MissingProviderToken`; unparseable bearer token →
///    `InvalidProviderToken`; a token → `JWTRules` (`InvalidProviderToken`, `ExpiredProviderToken`); a
///    certificate → `CertificateRules` (`BadCertificate`, `BadCertificateEnvironment`). Authentication comes
///    before validation because APNs answers 403 without inspecting a request it will not serve, and a
///    stranger must not learn which tokens or headers would work.
/// 4. **Connection binding** for tokens (`Forbidden`, `UnrelatedKeyIdInToken`, `BadEnvironmentKey…`,
///    `TooManyProviderTokenUpdates`): needs a valid token first, and is still about *who* is asking.
/// 5. Then the endpoint's own rules: `DevicePushRules` for `/3/device`, `BroadcastRules` for
///    `/4/broadcasts`, `ChannelRules` for `/1/apps/…/channels`.
///
/// The decider is pure apart from `connection`, which records the team/key binding and the token in use
/// once a token is admitted (step 4), even if a later rule rejects the request: the binding is about the
/// credential, and APNs binds on the first authenticated request. It does not call
/// `connection.recordSuccess()`: the server does that after it has actually answered 200 (a fault plan or
/// the device registry may still turn an accepted push into an error).
public enum RequestDecider {
    /// Decides `request` under `context`, updating the connection's token state. A rejection after step 1 carries the
    /// route it resolved, so what follows (the record's device token, the relay) does not read the path again.
    public static func decide(_ request: APNsRequest, context: DecisionContext,
                              connection: inout TokenConnectionState) -> Verdict {
        let route: Route
        switch Route.resolve(method: request.method, path: request.path) {
        case .success(let resolved): route = resolved
        case .failure(let reason): return .rejected(reason)
        }
        let verdict = decide(request, route: route, context: context, connection: &connection)
        if case .rejected(let reason, nil) = verdict { return .rejected(reason, route: route) }
        return verdict
    }

    /// Steps 2 to 5, for a request addressed to `route`.
    private static func decide(_ request: APNsRequest, route: Route, context: DecisionContext,
                               connection: inout TokenConnectionState) -> Verdict {
        guard context.servedAPIs.serves(route) else { return .rejected(.badPath) }
        let headers = HeaderIndex(request.headers)
        if headers.hasDuplicate { return .rejected(.duplicateHeaders) }
        if let reason = authenticate(context, connection: &connection) { return .rejected(reason) }

        switch route {
        case .device(let token):
            return DevicePushRules.decide(request, headers: headers, token: token, context: context)
        case .broadcast(let bundleID):
            return BroadcastRules.decide(request, bundleID: bundleID, context: context)
        case .channels, .allChannels:
            return ChannelRules.decide(request, route: route, context: context)
        }
    }

    /// Steps 3 and 4: the credential's own validity, then (for tokens) the connection binding.
    public static func authenticate(_ context: DecisionContext, connection: inout TokenConnectionState)
        -> APNsReason?
    {
        switch context.credential {
        case .none:
            return .missingProviderToken
        case .malformedToken:
            return .invalidProviderToken
        case .token(let facts):
            if let reason = JWTRules.check(facts, now: context.now) { return reason }
            return connection.admit(facts, environment: context.environment, now: context.now,
                                    environmentKeyReason: context.environmentKeyReason)
        case .certificate(let facts):
            return CertificateRules.check(facts, environment: context.environment)
        }
    }
}
