import Hummingbird

/// Lets a request through only when it carries `authorization: Bearer <token>`; 401 JSON otherwise.
///
/// Requests for which `isPublic` answers true pass without the token: the dashboard's page and its scripts and
/// styles, which hold no data, so that a browser can load the page and then ask the person for the token. It runs
/// after the browser guard, so foreign `Origin`s are refused on those paths too.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The expected secret.
    let token: String
    /// Requests that need no token (none by default).
    var isPublic: @Sendable (Request) -> Bool = { _ in false }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if isPublic(request) { return try await next(request, context) }
        guard let header = request.headers[.authorization], Self.matches(header: header, token: token) else {
            throw ControlAPIError(
                .unauthorized,
                "This control plane requires a token: send the header 'authorization: Bearer <token>' with the value given to --control-token."
            )
        }
        return try await next(request, context)
    }

    /// Compares `Bearer <token>` in time independent of where the first difference is.
    static func matches(header: String, token: String) -> Bool {
        let prefix = "bearer "
        guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else { return false }
        let given = Array(header.dropFirst(prefix.count).utf8)
        let expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in 0..<max(given.count, expected.count) {
            let a = index < given.count ? given[index] : 0
            let b = index < expected.count ? expected[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
