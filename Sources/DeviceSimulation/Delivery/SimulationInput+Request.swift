import APNsModel
import JSON
extension SimulationInput {
    /// The input for a recorded request: its body and its `apns-push-type`, `apns-priority`, `apns-topic` and
    /// `apns-collapse-id` headers. Header values APNs would reject are read as absent.
    ///
    /// - Throws: the parse error when the body is not JSON.
    public init(request: APNsRequest) throws(JSONParseError) {
        self.init(
            pushType: request.value("apns-push-type").flatMap { PushType(rawValue: $0.lowercased()) },
            priority: request.value("apns-priority").flatMap { Int($0) }.flatMap(Priority.init(rawValue:)),
            topic: request.value("apns-topic"),
            collapseID: request.value("apns-collapse-id"),
            payload: try JSONValue.parse(request.body))
    }
}
