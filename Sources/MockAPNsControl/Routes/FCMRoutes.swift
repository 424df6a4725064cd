import Foundation
import Hummingbird
import JSON
import MockAPNsFCM

/// `/api/v1/fcm/…`: the FCM front door's projects, registrations and records (docs/fcm.md). Without `serve --fcm`
/// every one answers 404 saying so.
/// - `POST /api/v1/fcm/projects/{project}/service-account` → a new service-account key file the mock trusts from
///   then on;
/// - `POST /api/v1/fcm/registrations` `{"project", "platform", "bundle_id", "apns_token"?}` → `{"token", "fid",
///   "platform", "project", "bundle_id", "apns_token"?, "topics"}`; `GET /api/v1/fcm/registrations?project=` lists them;
/// - `GET /api/v1/fcm/messages?project=&name=&token=&topic=&condition=&status=&validate_only=&limit=` → `{"messages": [record…]}`, oldest
///   first; `GET /api/v1/fcm/messages/{id}` (the name's last part, or the record's `seq`); `DELETE` clears them and
///   what the virtual Android devices received and stored. Under `serve --store` they are the shared store's, every
///   instance's, numbered by the store-wide id.
struct FCMRoutes {
    let frontDoor: FCMFrontDoor?

    static let registrationExample = #"{"project": "mockapns-test", "platform": "ios", "bundle_id": "com.example.app"}"#

    func register(on router: Router<ControlRequestContext>) {
        let group = router.group("api/v1/fcm")
        group.post("projects/:project/service-account") { _, context in
            let frontDoor = try self.required()
            let project = try context.parameters.require("project")
            do {
                let account = try frontDoor.projects.makeServiceAccount(project: project)
                return JSONResponse.make(account.json, status: .created)
            } catch {
                throw ControlAPIError.badRequest("\(error)")
            }
        }
        group.post("registrations") { request, _ in
            let frontDoor = try self.required()
            let json = try await JSONResponse.body(of: request, what: Self.registrationExample)
            let project = json["project"]?.stringValue ?? frontDoor.configuration.defaultProject
            guard let name = json["platform"]?.stringValue ?? Optional("ios"), let platform = FCMPlatform(rawValue: name) else {
                throw ControlAPIError.badRequest("\"platform\" must be ios, android or web; send \(Self.registrationExample)")
            }
            guard let bundleID = json["bundle_id"]?.stringValue else {
                throw ControlAPIError.badRequest("\"bundle_id\" is missing: the app's bundle id (iOS) or package name; send \(Self.registrationExample)")
            }
            if let given = json["apns_token"], given.stringValue == nil, given != .null {
                throw ControlAPIError.badRequest("\"apns_token\" must be a string of hex digits")
            }
            do {
                let registration = try frontDoor.register(project: project, platform: platform, bundleID: bundleID,
                                                          apnsToken: json["apns_token"]?.stringValue)
                return JSONResponse.make(Self.json(registration), status: .created)
            } catch {
                throw ControlAPIError.badRequest("\(error)")
            }
        }
        group.get("registrations") { request, _ in
            let frontDoor = try self.required()
            let project = request.formQueryParameters["project"].map(String.init) ?? frontDoor.configuration.defaultProject
            return JSONResponse.make(.object([.init("registrations", .array(frontDoor.registrations.all(project: project).map(Self.json)))]))
        }
        group.get("messages") { request, _ in
            let frontDoor = try self.required()
            let query = request.formQueryParameters
            var limit: Int?
            if let text = query["limit"] {
                guard let value = Int(text), value > 0 else { throw ControlAPIError.badRequest("limit must be a positive number") }
                limit = value
            }
            let filter = try FCMFilterQuery.filter(from: request)
            let records = try await Self.reading(frontDoor) { try await $0.records(matching: filter, limit: limit) }
            return JSONResponse.make(.object([.init("messages", .array(records))]))
        }
        group.get("messages/:id") { _, context in
            let frontDoor = try self.required()
            // A message id holds a `%` of its own (`0:…%41c6…`): the id as written in the path, and percent-decoded.
            let raw = try context.parameters.require("id")
            let ids = Set([raw, raw.removingPercentEncoding].compactMap { $0 })
            guard let found = try await Self.reading(frontDoor, { try await $0.record(ids) }) else {
                throw ControlAPIError.notFound("no FCM record has the name or seq \(raw)")
            }
            return JSONResponse.make(found)
        }
        group.delete("messages") { _, _ in
            let frontDoor = try self.required()
            // The Android devices' receipts are those messages' deliveries: a test starting afresh wants neither.
            frontDoor.androidDevices.removeAll()
            let cleared = try await Self.reading(frontDoor) { try await $0.clearRecords() }
            return JSONResponse.make(.object([.init("cleared", .integer(Int64(cleared)))]))
        }
    }

    /// Runs `body` on `frontDoor`'s records; a shared store that fails is a 503 naming it, in its own words.
    static func reading<Result: Sendable>(_ frontDoor: FCMFrontDoor, _ body: (FCMFrontDoor) async throws -> Result) async throws -> Result {
        do {
            return try await body(frontDoor)
        } catch {
            guard let store = frontDoor.storedRecords?.store else { throw error }
            throw ControlAPIError(.serviceUnavailable, "The shared store could not be read: \(store.describe(error))")
        }
    }

    private func required() throws -> FCMFrontDoor {
        try Self.required(frontDoor)
    }

    /// `frontDoor`, or the 404 every `/api/v1/fcm/…` route answers without `serve --fcm`.
    static func required(_ frontDoor: FCMFrontDoor?) throws -> FCMFrontDoor {
        guard let frontDoor else {
            throw ControlAPIError.notFound("this mock serves no FCM front door: start it with `mockapns serve --fcm` (MOCKAPNS_FCM=1)")
        }
        return frontDoor
    }

    static func json(_ registration: FCMRegistration) -> JSONValue {
        var members: [JSONValue.JSONMember] = [
            .init("token", .string(registration.token)), .init("fid", .string(registration.fid)),
            .init("platform", .string(registration.platform.rawValue)), .init("project", .string(registration.project)),
            .init("bundle_id", .string(registration.bundleID)),
        ]
        if let apns = registration.apnsToken { members.append(.init("apns_token", .string(apns))) }
        members.append(.init("topics", .array(registration.topics.sorted().map(JSONValue.string))))
        return .object(members)
    }
}
