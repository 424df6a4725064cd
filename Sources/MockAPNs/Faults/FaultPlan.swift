import APNsModel
import Foundation
import Synchronization
import Support

/// The scripted faults in force, with a seeded random generator so probabilistic plans replay exactly.
public final class FaultPlan: Sendable {
    /// A rule in the plan with its id and how often it has fired.
    public struct Entry: Sendable, Equatable {
        /// Stable id for removal (`DELETE /api/v1/faults/{id}`).
        public var id: String
        /// The rule.
        public var rule: FaultRule
        /// How many requests it has fired for.
        public var fired: Int
    }

    private struct State {
        var entries: [Entry] = []
        var random: SplitMix64
        var nextID = 1
    }

    private let state: Locked<State>
    /// Where counted rules are claimed when several mocks share them (``claimCounts(through:)``).
    private let sharedCounts = Locked<(any SharedStateStore)?>(nil)
    /// Whether `sharedCounts` is set, read per request without the lock.
    private let hasSharedCounts = Atomic<Bool>(false)
    /// Whether the plan has no rules: written under `state`'s lock whenever the rules change, read without it
    /// so that requests under an empty plan (the usual case) do not take the lock at all.
    private let hasNoRules = Atomic<Bool>(true)

    /// An empty plan whose probabilities draw from `seed`.
    public init(seed: UInt64 = 0x5EED) {
        state = Locked(State(random: SplitMix64(seed: seed)))
    }

    /// The most rules `POST /api/v1/faults` and `--faults` files may put in a plan, so that no client can grow
    /// it (and the per-request scan over it) without bound. Far more than any test scripts.
    public static let limitRules = 1_000

    /// Adds a rule unless the plan already holds ``limitRules``; returns its id, or nil when full.
    public func addIfRoom(_ rule: FaultRule) -> String? {
        state.withLock { state in
            state.entries.count < Self.limitRules ? append(rule, to: &state) : nil
        }
    }

    /// Adds a rule whatever ``limitRules`` says; returns its id. For code that sets a plan up directly (this package's
    /// tests); the mock's operations (`Mock.addFault(_:)`) hold every caller to the bound.
    @discardableResult
    public func add(_ rule: FaultRule) -> String {
        state.withLock { append(rule, to: &$0) }
    }

    /// Appends `rule` under the lock; returns its new id.
    private func append(_ rule: FaultRule, to state: inout State) -> String {
        let id = "f\(state.nextID)"
        state.nextID += 1
        state.entries.append(Entry(id: id, rule: rule, fired: 0))
        hasNoRules.store(false, ordering: .releasing)
        return id
    }

    /// Removes the rule with `id`; returns whether it existed.
    @discardableResult
    public func remove(id: String) -> Bool {
        state.withLock { state in
            let before = state.entries.count
            state.entries.removeAll { $0.id == id }
            hasNoRules.store(state.entries.isEmpty, ordering: .releasing)
            return state.entries.count != before
        }
    }

    /// Removes every rule.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            hasNoRules.store(true, ordering: .releasing)
        }
    }

    /// Makes the plan hold exactly `rules`, each under its given id (a shared store's copy, `serve --store`): a rule
    /// kept under the same id keeps its fire count, or takes the store's (`shared`, by id) when that is higher; at
    /// most ``limitRules`` are taken.
    public func replaceRules(_ rules: [(id: String, rule: FaultRule)], fired shared: [String: Int] = [:]) {
        state.withLock { state in
            let fired = Dictionary(state.entries.map { ($0.id, ($0.rule, $0.fired)) }, uniquingKeysWith: { first, _ in first })
            state.entries = rules.prefix(Self.limitRules).map { id, rule in
                let local = fired[id].flatMap { $0.0 == rule ? $0.1 : nil } ?? 0
                let count = max(local, shared[id] ?? 0)
                return Entry(id: id, rule: rule, fired: count)
            }
            hasNoRules.store(state.entries.isEmpty, ordering: .releasing)
        }
    }

    /// Restarts the random generator, so the next draws repeat a run.
    public func reseed(_ seed: UInt64) {
        state.withLock { $0.random = SplitMix64(seed: seed) }
    }

    /// The rules in order, with ids and fire counts.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Loads a `--faults` file: `{"seed": 42, "rules": [...]}` or a bare list of rules.
    public func load(contentsOf path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
        let json: JSONValue
        do { json = try JSONValue.parse(Array(data)) } catch { throw .invalidJSON(path, "\(error)") }
        let rules: JSONValue
        if case .array = json {
            rules = json
        } else if let list = json["rules"] {
            rules = list
            if let seed = json["seed"] {
                guard let number = seed.integerValue else {
                    throw .invalidFault("\(path): \"seed\" must be a whole number from -9223372036854775808 to 9223372036854775807")
                }
                reseed(UInt64(bitPattern: number))
            }
        } else {
            throw .invalidFault("\(path): expected {\"seed\": N, \"rules\": [...]} or a list of rules")
        }
        guard case .array(let items) = rules else { throw .invalidFault("\(path): \"rules\" must be a list") }
        guard items.count <= Self.limitRules else {
            throw .invalidFault("\(path): at most \(Self.limitRules) rules (got \(items.count))")
        }
        for item in items { add(try FaultRule(json: item)) }
    }

    /// Makes counted rules ("the next 3 pushes") count across every mock sharing `store` (`serve --store`): a
    /// matching push claims one firing from the store (``SharedStateStore/claimFault(id:limit:)``) before it is
    /// answered, so the rule fires exactly `count` times in all, whichever instances the pushes reach.
    public func claimCounts(through store: any SharedStateStore) {
        sharedCounts.withLock { $0 = store }
        hasSharedCounts.store(true, ordering: .releasing)
    }

    /// Whether counted rules are claimed from a shared store: a push they match is answered once the claim is back.
    public var claimsCountsElsewhere: Bool { hasSharedCounts.load(ordering: .acquiring) }

    /// What the plan does to one request.
    struct Firing {
        /// The rules that fire, in plan order.
        var fired: [FaultRule] = []
        /// Counted rules that match but fire only if the shared store grants a claim (ids and rules, plan order).
        var pending: [(id: String, rule: FaultRule)] = []
    }

    /// The rules that fire for a request, in plan order, counting each firing. With a shared store
    /// (``claimCounts(through:)``) and `canDefer`, matching counted rules come back in `pending` instead (uncounted)
    /// unless `claims` already says whether each was granted (the request's second pass).
    func fire(token: String?, topic: String?, pushType: String?, path: String,
              canDefer: Bool = false, claims: [String: Bool]? = nil) -> Firing {
        if hasNoRules.load(ordering: .acquiring) { return Firing() }
        let shared = canDefer && claimsCountsElsewhere
        return state.withLock { state in
            guard !state.entries.isEmpty else { return Firing() }
            var firing = Firing()
            for index in state.entries.indices {
                let rule = state.entries[index].rule
                guard rule.matches(token: token, topic: topic, pushType: pushType, path: path) else { continue }
                if shared, let count = rule.count {
                    let id = state.entries[index].id
                    if let claims {
                        if claims[id] == true { firing.fired.append(rule) }
                    } else if state.entries[index].fired < count {
                        firing.pending.append((id, rule))
                    }
                    continue
                }
                if let count = rule.count, state.entries[index].fired >= count { continue }
                if rule.probability < 1, state.random.nextUnit() >= rule.probability { continue }
                state.entries[index].fired += 1
                firing.fired.append(rule)
            }
            return firing
        }
    }

    /// The FCM front door's rules (`fcm_error`) that fire for a send to `project` (and `registrationToken`, nil for a
    /// topic or condition send), in plan order, each firing counted. Counted here, in this mock, also under a shared
    /// store.
    public func fireFCM(project: String, registrationToken: String?) -> [FaultRule] {
        if hasNoRules.load(ordering: .acquiring) { return [] }
        return state.withLock { state in
            var fired: [FaultRule] = []
            for index in state.entries.indices {
                let rule = state.entries[index].rule
                guard rule.matchesFCM(project: project, registrationToken: registrationToken) else { continue }
                if let count = rule.count, state.entries[index].fired >= count { continue }
                if rule.probability < 1, state.random.nextUnit() >= rule.probability { continue }
                state.entries[index].fired += 1
                fired.append(rule)
            }
            return fired
        }
    }

    /// Claims one firing of each of `pending` from the shared store; the answer per id (a store that cannot be
    /// reached grants nothing: the push is answered as if the rule had run out, and that is logged by the caller).
    /// The local fire counts follow the store's.
    func claim(_ pending: [(id: String, rule: FaultRule)]) async -> (claims: [String: Bool], failure: String?) {
        guard let store = sharedCounts.withLock({ $0 }) else { return ([:], nil) }
        var claims: [String: Bool] = [:]
        var failure: String?
        for (id, rule) in pending {
            do {
                let fired = try await store.claimFault(id: id, limit: rule.count ?? Int.max)
                claims[id] = fired != nil
                setFired(id: id, fired ?? rule.count ?? 0)   // run out: this instance stops asking
            } catch {
                claims[id] = false
                failure = "the shared store \(store.label) could not grant fault \(id): \(error)"
            }
        }
        return (claims, failure)
    }

    /// Records that the rule `id` has fired `count` times in all (the shared store's count).
    func setFired(id: String, _ count: Int) {
        state.withLock { state in
            if let index = state.entries.firstIndex(where: { $0.id == id }) { state.entries[index].fired = max(state.entries[index].fired, count) }
        }
    }
}
