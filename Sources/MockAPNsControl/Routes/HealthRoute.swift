import APNsModel
import Hummingbird

/// `GET /healthz`: `{"status":"ok"}` while the control plane serves.
struct HealthRoute {
    /// The path, for the token middleware's list of public routes (a container's health probe has no token).
    static let path = "/healthz"

    func register(on router: Router<ControlRequestContext>) {
        router.get("healthz") { _, _ in
            try JSONResponse.make(encoding: Status(status: "ok"))
        }
    }

    /// `{"status": "ok"}`.
    private struct Status: Encodable {
        let status: String
        enum CodingKeys: String, CodingKey { case status }
    }
}
