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
    public var contentType = FCMHTTPAnswer.jsonContentType

    /// The response's header fields (lowercase names): its content type, and on a 401 the challenge Google sends.
    var headerFields: [HTTPField] {
        guard contentType == Self.jsonContentType else {
            return [HTTPField(lowercaseName: "content-type", value: contentType)] + (status == 401 ? [Self.challenge] : [])
        }
        return status == 401 ? Self.jsonChallengeFields : Self.jsonFields
    }

    /// Google's JSON content type.
    static let jsonContentType = "application/json; charset=UTF-8"
    /// The fields of a JSON answer, made once.
    private static let jsonFields = [HTTPField(lowercaseName: "content-type", value: jsonContentType)]
    /// The challenge a 401 carries.
    private static let challenge = HTTPField(lowercaseName: "www-authenticate", value: "Bearer realm=\"https://accounts.google.com/\"")
    private static let jsonChallengeFields = jsonFields + [challenge]

    /// An answer of `json`.
    init(status: Int, json: JSONValue) {
        self.status = status
        self.json = json
        body = json.prettyBytes()
        body.append(UInt8(ascii: "\n"))
    }

    /// An answer of `json` whose text, `body`, the caller wrote.
    init(status: Int, json: JSONValue, body: [UInt8]) {
        self.status = status
        self.json = json
        self.body = body
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
