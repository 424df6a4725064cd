import FCMModel
import JSON

/// One answer of the FCM listener: status, JSON body and its content type.
public struct FCMHTTPAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: [UInt8]
    /// Google answers JSON with this content type.
    public var contentType = "application/json; charset=UTF-8"

    /// An answer of `json`.
    init(status: Int, json: JSONValue) {
        self.status = status
        body = Array((json.prettyText() + "\n").utf8)
    }

    /// An FCM error in Google's shape.
    init(_ error: FCMError) {
        status = error.httpStatus
        body = error.jsonBody()
    }

    /// A path none of Google's three APIs has.
    static func notFound(_ path: String) -> FCMHTTPAnswer {
        FCMHTTPAnswer(FCMError.notFound(path: path))
    }

    /// A known path asked with another method than POST.
    static func methodNotAllowed(_ path: String) -> FCMHTTPAnswer {
        FCMHTTPAnswer(FCMError.methodNotAllowed(path: path))
    }
}
