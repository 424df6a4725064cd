/// Everything about a request that is not in the request itself: the environment the server plays, how the
/// provider authenticated, the time, and the few wire choices where APNs's behaviour is disputed.
public struct DecisionContext: Sendable, Hashable {
    /// The environment the server plays (development = sandbox).
    public var environment: APNsEnvironment
    /// How the provider authenticated this request.
    public var credential: ProviderCredential
    /// The current time, in seconds since 1970.
    public var now: Int64
    /// Which spelling to answer for a key restricted to the other environment: Apple's documented
    /// `BadEnvironmentKeyIdInToken` (default) or `BadEnvironmentKeyInToken`, which APNs reportedly sends.
    public var environmentKeyReason: APNsReason
    /// The answer for a device-push body that is not a JSON object. Apple's device-push table has no reason
    /// for it; the default is `BadRequestPayload`, Apple's own reason for "JSON cannot be parsed" on the
    /// broadcast API (pushy's and APNSwift's mock servers do not check JSON at all, so there is no library
    /// precedent). Configurable in case real APNs is observed to answer otherwise.
    public var malformedPayloadReason: APNsReason
    /// Which APIs the port the request came in on serves (``ServedAPIs``): all of them on the mock's own port.
    public var servedAPIs: ServedAPIs

    /// Makes a decision context.
    public init(environment: APNsEnvironment, credential: ProviderCredential, now: Int64,
                environmentKeyReason: APNsReason = .badEnvironmentKeyIdInToken,
                malformedPayloadReason: APNsReason = .badRequestPayload, servedAPIs: ServedAPIs = .all) {
        self.servedAPIs = servedAPIs
        self.environment = environment
        self.credential = credential
        self.now = now
        self.environmentKeyReason = environmentKeyReason
        self.malformedPayloadReason = malformedPayloadReason
    }
}
