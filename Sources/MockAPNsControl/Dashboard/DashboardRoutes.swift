import Hummingbird

/// The web dashboard: `GET /` (the page) and `GET /dashboard/{file}` (its scripts and styles). The page talks to
/// the JSON API on the same origin (`/api/v1/search`, `/api/v1/stream`, `…/delivery`, devices, faults,
/// test-push), so it is under the same auth and Host/Origin rules as every other route.
///
/// With `--control-token` the page and its files are served without the token (they hold no data; see
/// ``isStaticAsset(_:)``); the page asks for the token (or reads it from the URL fragment `#token=…`, which browsers
/// never send), keeps it in `sessionStorage` and sends it as `authorization: Bearer` on every API call, the live
/// stream included (read with `fetch`, not `EventSource`, so the token never goes into a URL).
struct DashboardRoutes {
    /// Whether `request` is a GET or HEAD for the page or one of its files, the only requests that need no token.
    static func isStaticAsset(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let path = request.uri.path
        if path == "/" { return true }
        let prefix = "/dashboard/"
        guard path.hasPrefix(prefix) else { return false }
        return DashboardAsset.files[String(path.dropFirst(prefix.count))] != nil
    }

    func register(on router: Router<ControlRequestContext>) {
        router.get("/") { _, _ in Self.response(DashboardAsset.index) }
        router.get("dashboard/:file") { _, context in
            let name = try context.parameters.require("file")
            guard let asset = DashboardAsset.files[name] else {
                throw ControlAPIError.notFound("The dashboard has no file '\(name)'.")
            }
            return Self.response(asset)
        }
    }

    private static func response(_ asset: DashboardAsset) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: asset.contentType,
                .cacheControl: "no-cache",
                // The page loads nothing from elsewhere; say so, so a stray injection cannot either.
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
                .init("x-content-type-options")!: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes))
        )
    }
}
