import APNsModel
import Hummingbird

/// `GET /healthz`: `{"status":"ok"}` while the control plane serves.
struct HealthRoute {
    func register(on router: Router<ControlRequestContext>) {
        router.get("healthz") { _, _ in
            JSONResponse.make(.object([.init("status", .string("ok"))]))
        }
    }
}
