import HTTP2

/// The FCM front door's HTTP/2 side: each request the nghttp2 core hands over (`h2` negotiated by ALPN) goes to the
/// front door, and its answer goes back on the stream. Every answer but a send's is given on the loop before
/// `handle` returns; a send's comes from a task on the same loop (``FCMFrontDoor/respond(to:executor:answer:)``).
struct FCMHTTP2Handler: HTTP2RequestHandler {
    let frontDoor: FCMFrontDoor

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        var contentType: String?, authorization: String?
        for field in request.headers {
            if field.name == "content-type" { contentType = contentType ?? field.value }
            if field.name == "authorization" { authorization = authorization ?? field.value }
        }
        let call = FCMCall(method: request.method, target: request.path, contentType: contentType, authorization: authorization,
                           body: request.body, tooLarge: request.bodyOverflowed, transport: "h2", remote: request.remoteAddress)
        frontDoor.respond(to: call, executor: responder.taskExecutor) { answer in
            responder.respond(status: answer.status, headers: answer.headerFields, body: answer.body)
        }
    }
}
