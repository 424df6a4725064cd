import APNsModel
import DeviceSimulation

/// Where device states and fault rules live when several mocks share them (`serve --store`): a change made through
/// any instance's control API is written here and reaches every instance's local copy (``DeviceRegistry``,
/// ``FaultPlan``), which pushes read without waiting on the store.
///
/// Implemented where the database driver may be linked (MockAPNsPostgres); the control plane and the pipeline know
/// only this interface.
public protocol SharedStateStore: Sendable {
    /// Where the state is kept, for messages (no secrets).
    var label: String { get }
    /// Sets `token`'s state for every instance.
    func putDevice(_ token: String, _ state: DeviceState) async throws
    /// Makes `token` live again everywhere; whether it had a state.
    func removeDevice(_ token: String) async throws -> Bool
    /// Forgets every device state; how many there were.
    func removeAllDevices() async throws -> Int
    /// Records changes of `token`'s virtual device (``DeviceEvent/Kind/change(_:)`` events, with their instants) for
    /// every instance.
    func addDeviceChanges(_ token: String, _ events: [DeviceEvent]) async throws
    /// Forgets `token`'s virtual-device changes everywhere (every device's when `token` is nil); how many there were.
    func removeDeviceChanges(_ token: String?) async throws -> Int
    /// Adds a rule for every instance; its id (the same on every instance).
    func addFault(_ rule: FaultRule) async throws -> String
    /// Removes the rule with `id` everywhere; whether it existed.
    func removeFault(id: String) async throws -> Bool
    /// Removes every rule; how many there were.
    func removeAllFaults() async throws -> Int
    /// Takes one firing of the counted rule `id` if it has fired fewer than `limit` times across every instance:
    /// its new fire count, or nil when it has run out or is gone. Each firing is granted to one request only.
    func claimFault(id: String, limit: Int) async throws -> Int?
}
