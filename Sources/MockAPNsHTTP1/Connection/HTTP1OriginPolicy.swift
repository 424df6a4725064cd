import APNsModel

/// The one browser check the HTTP/1.1 APNs endpoint makes: APNs clients send no `Origin`, so a request carrying
/// another site's is a web page posting into the recording (a `text/plain` POST needs no CORS preflight).
///
/// `Host` is not checked: the endpoint may listen beyond loopback, and nothing it answers is secret.
enum HTTP1OriginPolicy {
    /// True when `request` carries an `Origin` other than the endpoint's own (`http://` + `host`).
    static func refuses(_ request: APNsRequest, host: String?) -> Bool {
        var origins = 0
        var sameOrigin = false
        for field in request.headers where field.name == "origin" {
            origins += 1
            if let host { sameOrigin = field.value.lowercased() == "http://" + host.lowercased() }
        }
        return origins > 0 && !(origins == 1 && sameOrigin)
    }
}
