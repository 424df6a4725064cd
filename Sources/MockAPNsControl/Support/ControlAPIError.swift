import APNsModel
import Hummingbird

/// A request the control API refuses, answered as `{"error": "<sentence>"}` with a 4xx status.
public struct ControlAPIError: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status (400, 401, 404…).
    public let status: HTTPResponse.Status
    /// What was wrong, in a sentence the caller can act on.
    public let message: String

    /// Makes an error answer.
    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The message, for logs.
    public var description: String { "\(status.code) \(message)" }

    /// 400 Bad Request.
    static func badRequest(_ message: String) -> ControlAPIError { .init(.badRequest, message) }
    /// 404 Not Found.
    static func notFound(_ message: String) -> ControlAPIError { .init(.notFound, message) }

    /// `{"error": message}`.
    private struct Body: Encodable {
        let error: String
        enum CodingKeys: String, CodingKey { case error }
    }

    /// The JSON body `{"error": message}` with this error's status.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONResponse.make(encoding: Body(error: message), status: status)
        if status == .unauthorized {
            response.headers[.wwwAuthenticate] = "Bearer realm=\"mockapns\""
        }
        return response
    }
}
