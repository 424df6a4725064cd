import Synchronization

/// Back-pressure from a consumer that fell behind to the transports that feed it, without blocking a thread.
///
/// A record writer whose queue is full shuts the gate. A connection that sees it shut after handling a request
/// stops reading (the bytes stay in the kernel, and then in the sender), and asks to be told when the gate opens
/// again (``whenOpen(_:)``). The writer opens it once it has taken its queue. So a disk or a database slower than
/// the traffic slows the senders down, while every event loop stays free to run what shares it: the database
/// connection the writer needs, the control plane, timers.
///
/// Several holders may shut it at once (each writer has a bit of its own); it is open when none holds it. Checking
/// it is one relaxed atomic load, cheap enough for every request.
public final class IntakeGate: Sendable {
    /// Who holds the gate shut: one bit per holder.
    public struct Holder: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The JSON Lines record file's writer.
        public static let recordFile = Holder(rawValue: 1)
        /// The record store's writer.
        public static let recordStore = Holder(rawValue: 2)
    }

    /// Actions waiting for the gate to open, handed out by ``open(by:)`` to be run outside the caller's locks.
    public struct Resumptions: Sendable {
        fileprivate var actions: [@Sendable () -> Void]
        /// None.
        public init() { actions = [] }
        fileprivate init(actions: [@Sendable () -> Void]) { self.actions = actions }
        /// Whether running them would do nothing.
        public var isEmpty: Bool { actions.isEmpty }
        /// Runs every action once.
        public func run() {
            for action in actions { action() }
        }
    }

    private let holders = Atomic<UInt32>(0)
    /// At most one action per connection held (a connection registers once per hold).
    private let waiting = Locked<[@Sendable () -> Void]>([])
    /// How many times the gate was shut, for `/metrics` and tests.
    private let shutCount = Atomic<Int>(0)

    /// An open gate.
    public init() {}

    /// Whether some holder keeps the gate shut: a transport stops reading while it is.
    @inline(__always)
    public var isShut: Bool { holders.load(ordering: .relaxed) != 0 }

    /// How many times the gate went from open to shut since it was made.
    public var timesShut: Int { shutCount.load(ordering: .relaxed) }

    /// Shuts the gate on behalf of `holder`.
    public func shut(by holder: Holder) {
        let before = holders.bitwiseOr(holder.rawValue, ordering: .acquiringAndReleasing).oldValue
        if before == 0 { shutCount.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Lets go of the gate on behalf of `holder`. When no holder is left, returns the actions waiting for it, for the
    /// caller to ``Resumptions/run()`` once it holds no lock of its own.
    public func open(by holder: Holder) -> Resumptions {
        let after = holders.bitwiseAnd(~holder.rawValue, ordering: .acquiringAndReleasing).newValue
        guard after == 0 else { return Resumptions() }
        return Resumptions(actions: waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        })
    }

    /// Runs `resume` once the gate is open: now, on this thread, if it already is; else from the thread that opens it.
    public func whenOpen(_ resume: @escaping @Sendable () -> Void) {
        // Checked under the lock `open` takes its waiters under: a gate opened after the check finds this action.
        let queued = waiting.withLock { waiting in
            guard holders.load(ordering: .acquiring) != 0 else { return false }
            waiting.append(resume)
            return true
        }
        if !queued { resume() }
    }
}
