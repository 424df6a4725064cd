import APNsModel
import DeviceSimulation
import MockAPNs

/// One request the mock answered, accepted or rejected, read the way a sender's test thinks about it:
/// who it went to, its headers, its alert, its custom keys, and what the mock said.
public struct ReceivedNotification: Sendable, Equatable {
    /// The full record: headers in wire order, raw body, authentication, lint findings, timings.
    public let record: RecordedRequest

    /// Wraps a record.
    public init(record: RecordedRequest) {
        self.record = record
    }

    /// Position in the recording, from 1.
    public var sequence: UInt64 { record.seq }
    /// The device token from the path.
    public var deviceToken: String? { record.deviceToken }
    /// `apns-topic`.
    public var topic: String? { record.header("apns-topic") }
    /// `apns-push-type`, when it is a known type.
    public var pushType: PushType? { record.header("apns-push-type").flatMap { PushType(rawValue: $0.lowercased()) } }
    /// `apns-priority`, when it is a known value.
    public var priority: Priority? { record.header("apns-priority").flatMap { Int($0) }.flatMap(Priority.init(rawValue:)) }
    /// `apns-collapse-id`.
    public var collapseID: String? { record.header("apns-collapse-id") }
    /// The `apns-id` the mock answered with (the request's, or one it made up); nil when it did not answer.
    public var apnsID: String? { record.response.apnsID }

    /// The body as JSON, when it parses.
    public var payload: JSONValue? { record.payload }
    /// The body size in bytes, as sent.
    public var payloadBytes: Int { record.payloadBytes }
    /// `aps.alert.title`.
    public var alertTitle: String? { payload?.value(at: ["aps", "alert", "title"])?.stringValue }
    /// `aps.alert.body`, or `aps.alert` when the alert is a plain string.
    public var alertBody: String? {
        let alert = payload?.value(at: ["aps", "alert"])
        return alert?.stringValue ?? alert?["body"]?.stringValue
    }
    /// `aps.badge`.
    public var badge: Int? { payload?.value(at: ["aps", "badge"])?.integerValue.map { Int($0) } }
    /// A top-level key of the payload outside `aps`, e.g. `customValue("orderID")`.
    public func customValue(_ key: String) -> JSONValue? {
        key == "aps" ? nil : payload?[key]
    }

    /// The status the mock answered (0 when it stalled, reset or dropped the request on purpose).
    public var status: Int { record.response.status }
    /// Whether the mock answered 200.
    public var isAccepted: Bool { status == 200 }
    /// The APNs reason of a rejection, when it is one APNs sends.
    public var reason: APNsReason? { record.response.reason.flatMap(APNsReason.init(responseReason:)) }
    /// The reason text as sent (also for reasons a fault made up).
    public var reasonText: String? { record.response.reason }
    /// The fault rules that fired for this request, by name.
    public var faults: [String] { record.faults }

    /// What an iPhone set up as `device` would do with this push (the model of device-rules §1–§10): what it shows,
    /// which code runs, and warnings. A body that is not JSON comes back `unknown`.
    public func simulate(on device: DeviceProfile = DeviceProfile()) -> Simulation {
        let request = APNsRequest(method: record.method, path: record.path, headers: record.headers, body: record.body)
        guard let input = try? SimulationInput(request: request) else {
            return Simulation(unknown: "the body is not JSON, so there is nothing the device could show")
        }
        return DeliverySimulator.simulate(input, on: device)
    }
}
