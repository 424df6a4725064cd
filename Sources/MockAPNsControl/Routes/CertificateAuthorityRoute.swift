import APNsCrypto
import Hummingbird

/// `GET /api/v1/ca.pem` and `GET /api/v1/ca.p12`: the CA certificate senders verify the APNs endpoint with (the
/// bundled test CA, or the one `serve --ca-dir` or `--apple-hosts` made), as PEM, and as a PKCS#12 trust store the
/// JVM loads as it is (`-Djavax.net.ssl.trustStore=ca.p12 -Djavax.net.ssl.trustStorePassword=changeit`). They need
/// no control token: a CA certificate is public, and a sender in another container fetches it before it has
/// anything else. 404 when the mock does not know the CA (a certificate of the user's own, given with `--cert`, or no
/// TLS).
struct CertificateAuthorityRoute {
    /// The CA's PEM bytes, read once when the control plane is made (no file I/O while serving).
    let pem: [UInt8]?
    /// The same as a PKCS#12 trust store, made once with the PEM.
    let pkcs12: [UInt8]?

    /// The paths, for the token middleware's list of public routes.
    static let paths: Set<String> = ["/api/v1/ca.pem", "/api/v1/ca.p12"]

    init(pem: [UInt8]?) {
        self.pem = pem
        pkcs12 = pem.flatMap { try? JavaTrustStore.pkcs12(pem: String(decoding: $0, as: UTF8.self)) }
    }

    func register(on router: Router<ControlRequestContext>) {
        let (pem, pkcs12) = (pem, pkcs12)
        router.get("api/v1/ca.pem") { _, _ -> Response in try Self.answer(pem, type: "application/x-pem-file") }
        router.get("api/v1/ca.p12") { _, _ -> Response in try Self.answer(pkcs12, type: "application/x-pkcs12") }
    }

    private static func answer(_ body: [UInt8]?, type: String) throws -> Response {
        guard let body else {
            throw ControlAPIError.notFound(
                "This mock serves a certificate of your own (--cert) or no TLS (--h2c), so it has no CA to hand out: "
                    + "take the CA that signed your --cert file.")
        }
        return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
