import FCMModel
import JSON
import XCTest

/// Errors in Google's shape (fcm-rules §4): the exact body, each error's status and code, which Admin SDK class it
/// becomes, and APNs's answers mapped back.
final class FCMErrorTests: XCTestCase {
    func testBodyIsGoogleRPCStatus() throws {
        let error = FCMError.invalidArgument("Invalid data payload key: from", field: "message.data", description: "reserved")
        XCTAssertEqual(error.json.jsonText(), #"{"error":{"code":400,"message":"Invalid data payload key: from","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.data","description":"reserved"}]}]}}"#)
        let body = error.jsonBody()
        XCTAssertEqual(body.last, UInt8(ascii: "\n"))
        XCTAssertEqual(try JSONValue.parse(body), error.json)
        XCTAssertEqual(FCMError(httpStatus: 404, status: .notFound, message: "x").json.jsonText(),
                       #"{"error":{"code":404,"message":"x","status":"NOT_FOUND"}}"#, "no details key without details")
        let apns = FCMError.fromAPNs(status: 410, reason: "Unregistered")!
        XCTAssertEqual(apns.json["error"]?["details"]?.arrayElements?.last?.jsonText(),
                       #"{"@type":"type.googleapis.com/google.firebase.fcm.v1.ApnsError","statusCode":410,"reason":"Unregistered"}"#)
        let info = FCMError.missingCredential().json["error"]?["details"]?.arrayElements?.first
        XCTAssertEqual(info?["@type"]?.stringValue, "type.googleapis.com/google.rpc.ErrorInfo")
        XCTAssertEqual(info?["reason"]?.stringValue, "CREDENTIALS_MISSING")
        XCTAssertEqual(info?["metadata"]?["service"]?.stringValue, "fcm.googleapis.com")
        let rootViolation = FCMError.invalidJSON([.init(field: nil, description: "d")]).json
        XCTAssertEqual(rootViolation["error"]?["details"]?.arrayElements?.first?["fieldViolations"]?.jsonText(), #"[{"description":"d"}]"#)
    }

    /// firebase-admin-python's mapping: the class from `status`, refined by the FcmError `errorCode`.
    private static func sdkClass(_ error: FCMError) -> String {
        switch error.errorCode {
        case .unregistered: return "UnregisteredError"
        case .senderIDMismatch: return "SenderIdMismatchError"
        case .quotaExceeded: return "QuotaExceededError"
        case .thirdPartyAuthError: return "ThirdPartyAuthError"
        default: break
        }
        switch error.status {
        case .invalidArgument: return "InvalidArgumentError"
        case .unauthenticated: return "UnauthenticatedError"
        case .permissionDenied: return "PermissionDeniedError"
        case .notFound: return "NotFoundError"
        case .resourceExhausted: return "ResourceExhaustedError"
        case .internal: return "InternalError"
        case .unavailable: return "UnavailableError"
        case .unimplemented: return "UnknownError"
        }
    }

    func testEverySDKErrorClassCanBeTriggered() {
        let cases: [(FCMError, Int, FCMError.Status, FCMError.ErrorCode?, String)] = [
            (.invalidRegistrationToken(), 400, .invalidArgument, .invalidArgument, "InvalidArgumentError"),
            (.invalidArgument("x"), 400, .invalidArgument, .invalidArgument, "InvalidArgumentError"),
            (.invalidJSON([.init(field: nil, description: "x")]), 400, .invalidArgument, nil, "InvalidArgumentError"),
            (.unregistered(), 404, .notFound, .unregistered, "UnregisteredError"),
            (.senderIDMismatch(), 403, .permissionDenied, .senderIDMismatch, "SenderIdMismatchError"),
            (.quotaExceeded(), 429, .resourceExhausted, .quotaExceeded, "QuotaExceededError"),
            (.thirdPartyAuthError(), 401, .unauthenticated, .thirdPartyAuthError, "ThirdPartyAuthError"),
            (.unavailable(), 503, .unavailable, .unavailable, "UnavailableError"),
            (.internalError(), 500, .internal, .internal, "InternalError"),
            (.missingCredential(), 401, .unauthenticated, nil, "UnauthenticatedError"),
            (.invalidCredential(), 401, .unauthenticated, nil, "UnauthenticatedError"),
            (.permissionDenied(project: "p"), 403, .permissionDenied, nil, "PermissionDeniedError"),
            (.insufficientScopes(), 403, .permissionDenied, nil, "PermissionDeniedError"),
            (.notFound(path: "/x"), 404, .notFound, nil, "NotFoundError"),
            (.methodNotAllowed(path: "/token"), 405, .unimplemented, nil, "UnknownError"),
            (.invalidContentType("text/plain"), 400, .invalidArgument, nil, "InvalidArgumentError"),
            (.payloadTooLarge(limit: 1024), 400, .invalidArgument, nil, "InvalidArgumentError"),
        ]
        for (error, status, rpc, code, sdk) in cases {
            XCTAssertEqual(error.httpStatus, status, error.message)
            XCTAssertEqual(error.status, rpc, error.message)
            XCTAssertEqual(error.errorCode, code, error.message)
            XCTAssertEqual(Self.sdkClass(error), sdk, error.message)
            XCTAssertFalse(error.message.isEmpty)
        }
        XCTAssertEqual(FCMError.missingCredential().message.prefix(61), "Request is missing required authentication credential. Expect")
        XCTAssertEqual(FCMError.thirdPartyAuthError().message, "Auth error from APNS or Web Push Service")
        XCTAssertEqual(FCMError.permissionDenied(project: "p").message,
                       "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/p' (or it may not exist).")
    }

    func testAPNsAnswersMapBack() {
        let cases: [(Int, String?, Int, FCMError.Status, FCMError.ErrorCode)] = [
            (410, "Unregistered", 404, .notFound, .unregistered),
            (410, "ExpiredToken", 404, .notFound, .unregistered),
            (403, "InvalidProviderToken", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "BadEnvironmentKeyInToken", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "ExpiredProviderToken", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "MissingProviderToken", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "BadCertificate", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "BadCertificateEnvironment", 401, .unauthenticated, .thirdPartyAuthError),
            (403, "TooManyProviderTokenUpdates", 401, .unauthenticated, .thirdPartyAuthError),
            (400, "BadDeviceToken", 400, .invalidArgument, .invalidArgument),
            (400, "BadPriority", 400, .invalidArgument, .invalidArgument),
            (400, "DeviceTokenNotForTopic", 400, .invalidArgument, .invalidArgument),
            (400, nil, 400, .invalidArgument, .invalidArgument),
            (413, "PayloadTooLarge", 400, .invalidArgument, .invalidArgument),
            (429, "TooManyRequests", 429, .resourceExhausted, .quotaExceeded),
            (500, "InternalServerError", 500, .internal, .internal),
            (503, "ServiceUnavailable", 503, .unavailable, .unavailable),
            (503, "Shutdown", 503, .unavailable, .unavailable),
            (404, "BadPath", 500, .internal, .internal),
            (405, "MethodNotAllowed", 500, .internal, .internal),
        ]
        for (apnsStatus, reason, status, rpc, code) in cases {
            let label = "\(apnsStatus) \(reason ?? "-")"
            guard let error = FCMError.fromAPNs(status: apnsStatus, reason: reason) else {
                XCTFail("\(label) mapped to success")
                continue
            }
            XCTAssertEqual(error.httpStatus, status, label)
            XCTAssertEqual(error.status, rpc, label)
            XCTAssertEqual(error.errorCode, code, label)
            XCTAssertEqual(error.apnsAnswer?.statusCode, apnsStatus, label)
            XCTAssertEqual(error.apnsAnswer?.reason, reason, label)
        }
        XCTAssertNil(FCMError.fromAPNs(status: 200, reason: nil))
    }

    func testDescription() {
        XCTAssertEqual(FCMError.unregistered().description, "404 NOT_FOUND (UNREGISTERED): Requested entity was not found.")
    }
}
