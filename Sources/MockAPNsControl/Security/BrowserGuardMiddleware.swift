import Hummingbird

/// Applies ``BrowserRequestPolicy`` to every control-plane request: 403 `{"error": …}` for requests addressed
/// to a foreign `Host` (without a token) or coming from a foreign web page's `Origin`, CORS preflights included.
struct BrowserGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The rules, set from whether the control plane has a token.
    let policy: BrowserRequestPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = Self.refusal(of: request, under: policy) {
            throw ControlAPIError(.forbidden, refusal)
        }
        return try await next(request, context)
    }

    /// The policy's verdict on `request`'s `Host` (HTTP types keep an HTTP/1.1 `Host` as the request's authority,
    /// not among the header fields) and `Origin` headers.
    static func refusal(of request: Request, under policy: BrowserRequestPolicy) -> String? {
        policy.refusal(host: request.head.authority, origins: request.headers[values: .origin])
    }
}
