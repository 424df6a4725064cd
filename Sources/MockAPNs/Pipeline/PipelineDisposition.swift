/// What the transport must do with a stream once the pipeline has decided.
package enum PipelineDisposition: Sendable, Equatable {
    /// Send the response.
    case respond
    /// Send nothing, ever (a `stall` fault).
    case stall
    /// Reset the stream with this HTTP/2 error code.
    case reset(errorCode: UInt32)
    /// Leave the stream unanswered and send GOAWAY with this code and `{"reason":…}` debug data, then close.
    case goAway(errorCode: UInt32, debugData: [UInt8])
    /// Close the TCP connection without answering.
    case drop
}
