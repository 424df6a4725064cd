import APNsModel
import HTTP2

/// The mock's state for one HTTP/2 connection, kept by the transport (`HTTP2Request.connectionContext`): the
/// pipeline's handle for the connection, so a request needs no lookup in the table every connection shares.
final class PipelineHTTP2Connection: Sendable {
    let handle: PipelineConnectionHandle

    init(handle: PipelineConnectionHandle) {
        self.handle = handle
    }

    /// `headers`, received by the transport, as the model's header fields (the transport's and the model's types
    /// are separate on purpose: APNsModel knows nothing of HTTP/2). Their names are taken as they are:
    /// received names are lowercase (`HTTPHeaderField`; HTTP/2 requires it, and nghttp2 resets a stream whose field
    /// names have capitals before any of it reaches a handler), and `HeaderField(name:value:)` would check that
    /// again, byte by byte and through a call into another module, for every field of every request.
    static func modelHeaders(_ headers: [HTTPHeaderField]) -> [HeaderField] {
        var fields: [HeaderField] = []
        fields.reserveCapacity(headers.count)
        var field = HeaderField(name: "", value: "")
        for header in headers {
            field.name = header.name
            field.value = header.value
            fields.append(field)
        }
        return fields
    }
}
