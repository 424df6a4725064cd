import Hummingbird

/// `GET /api/v1/openapi.json`: the control API described once, as an OpenAPI 3.1 document
/// (`Sources/MockAPNsControl/OpenAPI/openapi.json`, compiled in). A test checks it against the routes both ways:
/// every route registered is documented, and every documented operation answers.
struct OpenAPIRoute {
    func register(on router: Router<ControlRequestContext>) {
        router.get("api/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
    }
}
