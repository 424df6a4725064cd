import Hummingbird

/// The web dashboard: `GET /` (the page) and `GET /dashboard/{file}` (its scripts and styles). The page talks to
/// the JSON API on the same origin (`/api/v1/search`, `/api/v1/stream`, `…/delivery`, devices, faults,
/// test-push), so it is under the same auth and Host/Origin rules as every other route.
struct DashboardRoutes {
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
