@testable import APNsModel
@testable import DeviceSimulation

/// Simulates `payload` (JSON text) with the given headers on `device`.
func simulate(
    _ payload: String, pushType: PushType? = .alert, priority: Priority? = .immediate, topic: String? = nil,
    collapseID: String? = nil, on device: DeviceProfile = DeviceProfile()
) -> Simulation {
    DeliverySimulator.simulate(
        SimulationInput(
            pushType: pushType, priority: priority, topic: topic, collapseID: collapseID, payload: json(payload)),
        on: device)
}

/// Payloads the tests share.
enum Payloads {
    static let silent = ##"{"aps": {"content-available": 1}, "updateType": "new-data"}"##
    static let alert = ##"{"aps": {"alert": {"title": "Hello", "body": "World"}, "sound": "default", "badge": 3}}"##
    static let alertAndContentAvailable =
        ##"{"aps": {"alert": {"title": "Hello", "body": "World"}, "sound": "default", "badge": 3, "content-available": 1}}"##
    static let mutable = ##"{"aps": {"alert": {"title": "Photo", "body": "Alice sent a photo"}, "mutable-content": 1}}"##
}

extension Array where Element == DeliveryEvent {
    /// The handler names, for compact assertions.
    var handlers: [String] { map(\.handler) }
}
