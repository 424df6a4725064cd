import APNsModel
import Foundation
import Hummingbird

/// Builds JSON responses from ``JSONValue`` (which keeps key order) and bridges `Codable` values.
enum JSONResponse {
    /// A response whose body is `value` as compact JSON plus a newline.
    static func make(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        let text = value.jsonText() + "\n"
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// An `Encodable` value as a ``JSONValue`` (through `JSONEncoder`, keys sorted).
    static func jsonValue(of value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try JSONValue.parse(Array(try encoder.encode(value)))
    }

    /// Decodes a request body as `T`, answering 400 with the decoder's complaint when it does not fit.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, what: String) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: 1 << 20)
        let bytes = Data(buffer: buffer)
        do {
            return try JSONDecoder().decode(T.self, from: bytes)
        } catch let error as DecodingError {
            throw ControlAPIError.badRequest("The body is not a valid \(what): \(DecodingErrorText.describe(error)).")
        } catch {
            throw ControlAPIError.badRequest("The body is not a valid \(what): \(error).")
        }
    }
}
