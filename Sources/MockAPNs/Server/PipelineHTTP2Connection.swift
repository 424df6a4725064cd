import APNsModel
import HTTP2

/// The mock's state for one HTTP/2 connection, kept by the transport (`HTTP2Request.connectionContext`): the
/// pipeline's handle for the connection, so a request needs no lookup in the table every connection shares.
final class PipelineHTTP2Connection: Sendable {
    let handle: PipelineConnectionHandle

    init(handle: PipelineConnectionHandle) {
        self.handle = handle
    }

    /// `headers` as the model's header fields (the transport's and the model's types are separate on purpose:
    /// APNsModel knows nothing of HTTP/2).
    func headers(_ headers: [HTTPHeaderField]) -> [HeaderField] {
        headers.map { HeaderField(name: $0.name, value: $0.value) }
    }
}
