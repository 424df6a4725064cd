import APNsModel
import MockAPNs

/// Fault-plan shortcuts: make the next requests fail, hang or lose their connection. Every shortcut takes
/// an optional `token` so only pushes to that device are hit; `count` is how many matching requests fire.
extension APNsMock {
    /// The next `count` pushes are answered with `reason` and its status (503 `ServiceUnavailable` by default).
    @discardableResult
    public func failNext(_ count: Int = 1, reason: APNsReason = .serviceUnavailable, token: String? = nil) -> FaultID {
        failNext(count, status: reason.status, reason: reason.rawValue, token: token)
    }

    /// The next `count` pushes are answered with any `status` and `reason` text.
    @discardableResult
    public func failNext(_ count: Int = 1, status: Int, reason: String, token: String? = nil) -> FaultID {
        addFault(FaultRule(name: "fail \(status) \(reason)", token: token, count: count,
                           action: .status(status, reason: reason)))
    }

    /// The next `count` pushes are answered normally, but only after `delay`.
    @discardableResult
    public func delayNext(_ count: Int = 1, by delay: Duration, token: String? = nil) -> FaultID {
        let millis = Int(delay.components.seconds) * 1000 + Int(delay.components.attoseconds / 1_000_000_000_000_000)
        return addFault(FaultRule(name: "delay \(millis) ms", token: token, count: count, action: .delay(milliseconds: millis)))
    }

    /// The next `count` pushes are never answered (the sender's timeout has to fire).
    @discardableResult
    public func stallNext(_ count: Int = 1, token: String? = nil) -> FaultID {
        addFault(FaultRule(name: "stall", token: token, count: count, action: .stall))
    }

    /// The next `count` pushes have their connection dropped without an answer.
    @discardableResult
    public func dropConnectionOnNext(_ count: Int = 1, token: String? = nil) -> FaultID {
        addFault(FaultRule(name: "drop", token: token, count: count, action: .drop))
    }

    /// The next `count` pushes get GOAWAY with `reason` and the connection closes.
    @discardableResult
    public func goAwayOnNext(_ count: Int = 1, reason: String = "Shutdown", token: String? = nil) -> FaultID {
        addFault(FaultRule(name: "goaway \(reason)", token: token, count: count, action: .goAway(reason: reason, errorCode: 0)))
    }

    /// Adds any fault rule; returns its id. As `POST /api/v1/faults` does (the in-process mock has no shared store);
    /// a plan already holding `FaultPlan.limitRules` rules is a mistake in the test, reported as one.
    @discardableResult
    public func addFault(_ rule: FaultRule) -> FaultID {
        do {
            return FaultID(rawValue: try mock.addFaultHere(rule))
        } catch {
            preconditionFailure("APNsMock.addFault: \(error)")
        }
    }

    /// Removes a fault; returns whether it was still in the plan.
    @discardableResult
    public func removeFault(_ id: FaultID) -> Bool {
        mock.faults.remove(id: id.rawValue)
    }

    /// Removes every fault.
    public func removeAllFaults() {
        mock.faults.removeAll()
    }

    /// How many requests the fault has fired for (0 when it is not in the plan).
    public func timesFired(_ id: FaultID) -> Int {
        mock.faults.entries.first { $0.id == id.rawValue }?.fired ?? 0
    }
}
