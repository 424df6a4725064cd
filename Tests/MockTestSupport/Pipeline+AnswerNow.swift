import APNsModel
import MockAPNs

extension Pipeline {
    /// `process(_:on:later:)` for a pipeline that answers everything at once (no `--record-sync`, relay or counted
    /// fault shared through a store): the answer, for tests that drive the pipeline without a transport.
    package func answerNow(_ request: APNsRequest, on connection: PipelineConnection) -> PipelineResponse {
        switch process(request, on: connection, later: { _ in }) {
        case .now(let response):
            return response
        case .later:
            preconditionFailure("this pipeline answers later (record-sync, relay or shared counted faults): drive it through a transport")
        }
    }
}
