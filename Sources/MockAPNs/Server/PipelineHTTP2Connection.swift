import APNsModel
import HTTP2

/// The mock's state for one HTTP/2 connection, kept by the transport (`HTTP2Request.connectionContext`): the
/// pipeline's handle for the connection, and the header list last converted to the model's type.
///
/// A sender repeats its header list, and the transport then hands over the very same array
/// (`RepeatedFieldCache`), so the list is converted once instead of once per request.
// @unchecked Sendable: `handle` is immutable and Sendable; the conversion cache is only touched from `handle(_:)`,
// which the transport calls on the connection's loop thread, one request at a time.
final class PipelineHTTP2Connection: @unchecked Sendable {
    let handle: PipelineConnectionHandle
    private var lastTransportHeaders: [HTTPHeaderField] = []
    private var lastHeaders: [HeaderField] = []

    init(handle: PipelineConnectionHandle) {
        self.handle = handle
    }

    /// `headers` as the model's header fields: the last conversion again when `headers` is the same array.
    func headers(_ headers: [HTTPHeaderField]) -> [HeaderField] {
        if headers.sharesStorage(with: lastTransportHeaders) { return lastHeaders }
        let converted = headers.map { HeaderField(name: $0.name, value: $0.value) }
        lastTransportHeaders = headers
        lastHeaders = converted
        return converted
    }
}
