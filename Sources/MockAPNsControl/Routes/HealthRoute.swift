import APNsModel
import Hummingbird

/// `GET /healthz`: `{"status":"ok"}` while the control plane serves.
struct HealthRoute {
    /// The path, for the token middleware's list of public routes (a container's health probe has no token).
    static let path = "/healthz"

    func register(on router: Router<ControlRequestContext>) {
        router.get("healthz") { _, _ in
            JSONResponse.make(.object([.init("status", .string("ok"))]))
        }
    }
}
