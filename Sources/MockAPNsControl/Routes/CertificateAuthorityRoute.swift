import Hummingbird

/// `GET /api/v1/ca.pem`: the CA certificate senders verify the APNs endpoint with (the bundled test CA, or the one
/// `serve --ca-dir` made), as `application/x-pem-file`. It needs no control token: a CA certificate is public, and a
/// sender in another container fetches it before it has anything else. 404 when the mock does not know the CA (a
/// certificate of the user's own, given with `--cert`, or no TLS).
struct CertificateAuthorityRoute {
    /// The CA's PEM bytes, read once when the control plane is made (no file I/O while serving).
    let pem: [UInt8]?

    /// The path, for the token middleware's list of public routes.
    static let path = "/api/v1/ca.pem"

    func register(on router: Router<ControlRequestContext>) {
        let pem = pem
        router.get("api/v1/ca.pem") { _, _ -> Response in
            guard let pem else {
                throw ControlAPIError.notFound(
                    "This mock serves a certificate of your own (--cert) or no TLS (--h2c), so it has no CA to hand out: "
                        + "take the CA that signed your --cert file.")
            }
            return Response(status: .ok, headers: [.contentType: "application/x-pem-file"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: pem)))
        }
    }
}
