import FCMModel
import HTTPFields
import JSON

/// One answer of the FCM listener: status, JSON body and its content type.
public struct FCMHTTPAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: [UInt8]
    /// The body as JSON, which the FCM record keeps.
    public var json: JSONValue
    /// Google answers JSON with this content type.
    public var contentType = "application/json; charset=UTF-8"

    /// The response's header fields (lowercase names): its content type, and on a 401 the challenge Google sends.
    var headerFields: [HTTPField] {
        var fields = [HTTPField(lowercaseName: "content-type", value: contentType)]
        if status == 401 { fields.append(HTTPField(lowercaseName: "www-authenticate", value: "Bearer realm=\"https://accounts.google.com/\"")) }
        return fields
    }

    /// An answer of `json`.
    init(status: Int, json: JSONValue) {
        self.status = status
        self.json = json
        body = json.prettyBytes() + [UInt8(ascii: "\n")]
    }

    /// An FCM error in Google's shape.
    init(_ error: FCMError) {
        status = error.httpStatus
        json = error.json
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
