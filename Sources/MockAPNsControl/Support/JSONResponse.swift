import APNsModel
import Hummingbird
import JSON

/// Builds JSON responses from ``JSONValue`` (which keeps key order) and from `Encodable` bodies.
enum JSONResponse {
    /// A response whose body is `value` encoded by ``JSONValueEncoder`` (members in its `CodingKeys` order, so the
    /// bytes are those of the same tree built by hand), as compact JSON plus a newline.
    static func make(encoding value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        make(try JSONValueEncoder().encode(value), status: status)
    }

    /// A response whose body is `value` as compact JSON plus a newline.
    static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        let text = value.jsonText() + "\n"
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// The request body as JSON; 400 when it is missing or not JSON.
    static func body(of request: Request, what: String) async throws -> JSONValue {
        var request = request
        let buffer = try await request.collectBody(upTo: 1 << 20)
        let bytes = Array(buffer.readableBytesView)
        guard !bytes.isEmpty else {
            throw ControlAPIError.badRequest("The request needs a JSON body: \(what).")
        }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw ControlAPIError.badRequest("The body is not JSON (\(error)); send \(what).")
        }
    }
}
