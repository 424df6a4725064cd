import APNsModel
import DeviceSimulation
import Foundation
import Hummingbird
import JSON
import MockAPNsRecording

/// `GET /api/v1/notifications/{seq}/delivery?state=&authorization=&in_app_routing=`: what an iPhone does with a
/// recorded push, from ``DeliverySimulator`` (the dashboard renders this; it never re-implements the rules).
/// Answers `{"seq", "profile": {…}, "simulation": {"presentation", "events", "warnings", "unknown"?}}`.
/// `state` is one of ``AppState`` (default foreground), `authorization` one of ``Authorization`` (default
/// authorized), `in_app_routing` true/false (default false). A record only in the record file is found there.
struct DeliveryRoute {
    let reader: RecordReader

    func register(on router: Router<ControlRequestContext>) {
        router.group("api/v1").get("notifications/:id/delivery") { request, context in
            let id = try context.parameters.require("id")
            guard let seq = UInt64(id), seq > 0 else {
                throw ControlAPIError.badRequest("The delivery view takes a record's sequence number; got '\(id)'.")
            }
            let profile = try Self.profile(from: request)
            guard let record = try await reader.record(String(seq)) else {
                throw ControlAPIError.notFound("No recorded notification has sequence number \(seq).")
            }
            let request = APNsRequest(method: record.method, path: record.path, headers: record.headers, body: record.body)
            guard let input = try? SimulationInput(request: request) else {
                throw ControlAPIError.badRequest("Record \(seq) has a body that is not JSON: no device would show it.")
            }
            let simulation = DeliverySimulator.simulate(input, on: profile)
            let body = DeliveryAnswer(seq: seq, profile: profile, simulation: simulation)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: try JSONValueEncoder().encode(body).jsonText(sortedKeys: true)))
            )
        }
    }

    /// The body of the answer.
    private struct DeliveryAnswer: Encodable {
        let seq: UInt64
        let profile: DeviceProfile
        let simulation: Simulation
    }

    /// The device profile the query asks for; unknown values answer 400 naming the allowed ones.
    static func profile(from request: Request) throws -> DeviceProfile {
        let query = request.formQueryParameters
        var profile = DeviceProfile()
        if let raw = query["state"], !raw.isEmpty {
            guard let state = AppState(rawValue: String(raw)) else {
                throw ControlAPIError.badRequest("'state' must be one of \(AppState.allCases.map(\.rawValue).joined(separator: ", ")); got '\(raw)'.")
            }
            profile.state = state
        }
        if let raw = query["authorization"], !raw.isEmpty {
            guard let authorization = Authorization(rawValue: String(raw)) else {
                throw ControlAPIError.badRequest(
                    "'authorization' must be one of \(Authorization.allCases.map(\.rawValue).joined(separator: ", ")); got '\(raw)'.")
            }
            profile.authorization = authorization
        }
        if let raw = query["in_app_routing"], !raw.isEmpty {
            guard raw == "true" || raw == "false" else {
                throw ControlAPIError.badRequest("'in_app_routing' must be true or false; got '\(raw)'.")
            }
            profile.inAppRouting = raw == "true"
        }
        return profile
    }
}
