import APNsModel
import DeviceSimulation

/// Why a change to the mock's devices or fault plan was not made, in a sentence that says what to do.
public enum MockOperationError: Error, CustomStringConvertible {
    /// A bound was reached: the fault plan's ``FaultPlan/limitRules``, the device registry's limits.
    case full(String)
    /// The change itself is out of bounds (a state past the registry's limits).
    case outOfBounds(String)
    /// The shared store (`serve --store`) did not take the change, so no instance applies it.
    case sharedStoreUnavailable(label: String, reason: String)

    public var description: String {
        switch self {
        case .full(let text), .outOfBounds(let text): return text
        case .sharedStoreUnavailable(let label, let reason):
            return "The shared store \(label) did not take the change, so no instance applies it: \(reason). Try again once it is reachable."
        }
    }
}

/// The operations that change what the mock answers: devices, their virtual-device changes and the fault plan. Each
/// writes this mock and, with a shared store (`serve --store`), the store, so every instance applies it; the store is
/// written first, so a change it refuses is made nowhere. The control API's routes call these; `APNsMock`, which has
/// no shared store, calls their local halves (`…Here`) synchronously. So the API and the kits mean one thing by one
/// operation.
extension Mock {
    /// Adds `rule` to the fault plan; returns its id (the store's, with one).
    public func addFault(_ rule: FaultRule) async throws(MockOperationError) -> String {
        guard faults.entries.count < FaultPlan.limitRules else { throw .full(Self.faultPlanFull) }
        if let shared = configuration.sharedState {
            let id = try await Self.sharing(shared) { try await $0.addFault(rule) }
            faults.replaceRules(faults.entries.map { ($0.id, $0.rule) } + [(id, rule)])
            return id
        }
        return try addFaultHere(rule)
    }

    /// ``addFault(_:)`` on this mock alone.
    package func addFaultHere(_ rule: FaultRule) throws(MockOperationError) -> String {
        guard let id = faults.addIfRoom(rule) else { throw .full(Self.faultPlanFull) }
        return id
    }

    /// Removes the fault rule `id`; returns whether this mock or the store had it.
    public func removeFault(id: String) async throws(MockOperationError) -> Bool {
        var sharedHadIt = false
        if let shared = configuration.sharedState {
            sharedHadIt = try await Self.sharing(shared) { try await $0.removeFault(id: id) }
        }
        return faults.remove(id: id) || sharedHadIt
    }

    /// Removes every fault rule; returns how many there were (in the store, with one).
    public func removeAllFaults() async throws(MockOperationError) -> Int {
        var count = faults.entries.count
        if let shared = configuration.sharedState {
            count = try await Self.sharing(shared) { try await $0.removeAllFaults() }
        }
        faults.removeAll()
        return count
    }

    /// Applies `update` to `token`: its state, its virtual device's changes and its Live Activity push-to-start
    /// tokens (which stay with this instance). Checked against this mock's bounds first.
    public func updateDevice(_ token: String, _ update: DeviceUpdate) async throws(MockOperationError) {
        try updateDeviceHere(token, update)
        guard let shared = configuration.sharedState else { return }
        if let state = update.state { try await Self.sharing(shared) { try await $0.putDevice(token, state) } }
        if !update.changes.isEmpty { try await Self.sharing(shared) { try await $0.addDeviceChanges(token, update.changes) } }
    }

    /// ``updateDevice(_:_:)`` on this mock alone.
    package func updateDeviceHere(_ token: String, _ update: DeviceUpdate) throws(MockOperationError) {
        do {
            if let state = update.state { try devices.set(token, state) }
            for change in update.changes { try deviceChanges.append(change, token: token) }
            if let tokens = update.pushToStartTokens { try deviceChanges.setPushToStartTokens(tokens, device: token) }
        } catch {
            switch error {
            case .full, .topicsFull, .ratePushesFull: throw .full(error.description)
            case .outOfBounds: throw .outOfBounds(error.description)
            }
        }
    }

    /// Adds one change of `token`'s virtual device (online, app state, settings…).
    public func addDeviceChange(_ event: DeviceEvent, token: String) async throws(MockOperationError) {
        try addDeviceChangeHere(event, token: token)
        if let shared = configuration.sharedState {
            try await Self.sharing(shared) { try await $0.addDeviceChanges(token, [event]) }
        }
    }

    /// ``addDeviceChange(_:token:)`` on this mock alone.
    package func addDeviceChangeHere(_ event: DeviceEvent, token: String) throws(MockOperationError) {
        do {
            try deviceChanges.append(event, token: token)
        } catch {
            throw .full(error.description)
        }
    }

    /// Forgets `token`'s state and changes; returns whether this mock or the store had any.
    public func removeDevice(_ token: String) async throws(MockOperationError) -> Bool {
        var sharedHadIt = false
        if let shared = configuration.sharedState {
            sharedHadIt = try await Self.sharing(shared) { try await $0.removeDevice(token) }
            sharedHadIt = try await Self.sharing(shared) { try await $0.removeDeviceChanges(token) } > 0 || sharedHadIt
        }
        return removeDeviceHere(token) || sharedHadIt
    }

    /// ``removeDevice(_:)`` on this mock alone.
    package func removeDeviceHere(_ token: String) -> Bool {
        let hadChanges = deviceChanges.remove(token: token)
        let hadState = devices.all()[token.lowercased()] != nil
        devices.remove(token)
        return hadState || hadChanges
    }

    /// Forgets every device state and change; returns how many states there were (in the store, with one).
    public func removeAllDevices() async throws(MockOperationError) -> Int {
        var count = devices.all().count
        if let shared = configuration.sharedState {
            count = try await Self.sharing(shared) { try await $0.removeAllDevices() }
            _ = try await Self.sharing(shared) { try await $0.removeDeviceChanges(nil) }
        }
        devices.removeAll()
        deviceChanges.removeAll()
        return count
    }

    private static let faultPlanFull = "The fault plan is full: it holds at most \(FaultPlan.limitRules) rules. "
        + "Remove some first (DELETE /api/v1/faults/{id}, or DELETE /api/v1/faults for all)."

    /// Runs `change` on the shared store, its failure as ``MockOperationError/sharedStoreUnavailable(label:reason:)``.
    private static func sharing<Result>(_ shared: any SharedStateStore,
                                        _ change: (any SharedStateStore) async throws -> Result) async throws(MockOperationError) -> Result {
        do {
            return try await change(shared)
        } catch {
            throw .sharedStoreUnavailable(label: shared.label, reason: "\(error)")
        }
    }
}
