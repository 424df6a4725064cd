import Foundation
import Hummingbird
import JSON
import MockAPNsFCM

/// `/api/v1/fcm/registrations/{token}/device`: the virtual Android device behind an Android registration
/// (docs/fcm.md, fcm-rules §6). An iOS registration's device is its APNs token's (`/api/v1/devices/{apns_token}`).
/// - `GET` → `{"app_state", "online", "received": [receipt…], "stored": [name…]}`;
/// - `PUT` `{"app_state": "foreground"|"background", "online": true|false}` (either) changes it; coming back online
///   delivers what FCM stored: `{…, "delivered": [receipt…]}`.
struct FCMAndroidDeviceRoutes {
    let frontDoor: FCMFrontDoor?

    static let example = #"{"app_state": "foreground", "online": false}"#

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/fcm/registrations")
        group.get(":token/device") { _, context in
            let (frontDoor, token) = try self.android(context)
            return JSONResponse.make(frontDoor.androidDevices.snapshot(token).json)
        }
        group.put(":token/device") { request, context in
            let (frontDoor, token) = try self.android(context)
            let json = try await JSONResponse.body(of: request, what: Self.example)
            var foreground: Bool?
            if let state = json["app_state"] {
                guard let name = state.stringValue, ["foreground", "background"].contains(name) else {
                    throw ControlAPIError.badRequest("\"app_state\" is \"foreground\" or \"background\"; send \(Self.example)")
                }
                foreground = name == "foreground"
            }
            var online: Bool?
            if let value = json["online"] {
                guard let flag = value.boolValue else { throw ControlAPIError.badRequest("\"online\" is true or false; send \(Self.example)") }
                online = flag
            }
            guard foreground != nil || online != nil else {
                throw ControlAPIError.badRequest("give \"app_state\", \"online\" or both; send \(Self.example)")
            }
            let delivered = frontDoor.androidDevices.update(token, appInForeground: foreground, online: online,
                                                            nowMillis: frontDoor.nowMillis)
            guard case .object(var members) = frontDoor.androidDevices.snapshot(token).json else { return JSONResponse.make(.null) }
            members.append(.init("delivered", .array(delivered.map(\.json))))
            return JSONResponse.make(.object(members))
        }
    }

    /// The front door and the path's token, which must be an Android registration.
    private func android(_ context: ControlRequestContext) throws -> (FCMFrontDoor, String) {
        guard let frontDoor else {
            throw ControlAPIError.notFound("this mock serves no FCM front door: start it with `mockapns serve --fcm` (MOCKAPNS_FCM=1)")
        }
        // A registration token holds a `:`, which a client may percent-encode in the path.
        let raw = try context.parameters.require("token")
        let token = raw.removingPercentEncoding ?? raw
        guard let registration = frontDoor.registrations.registration(token) else {
            throw ControlAPIError.notFound("no FCM registration has the token \(token): register one with POST /api/v1/fcm/registrations")
        }
        guard registration.platform == .android else {
            let hint = registration.apnsToken.map { ": its device is the APNs token's, /api/v1/devices/\($0)" } ?? ""
            throw ControlAPIError.badRequest("the registration \(token) is \(registration.platform.rawValue), not android\(hint)")
        }
        return (frontDoor, token)
    }
}
