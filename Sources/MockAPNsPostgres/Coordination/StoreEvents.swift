/// How the instances sharing a store learn that another changed the shared state, and how they take turns
/// (`serve --store-events notify|poll`).
///
/// Both modes write every change of device states, fault rules and device changes with a row in the outbox
/// (`mockapns_store_events`), so an instance in either mode sees a change made by one in the other.
public enum StoreEvents: String, Sendable, CaseIterable {
    /// PostgreSQL's own: `LISTEN`/`NOTIFY` wakes the instances at once, and advisory locks serialise migrations and
    /// pruning. The default on PostgreSQL.
    case notify
    /// Portable to engines without `LISTEN`/`NOTIFY` or advisory locks (CockroachDB, YugabyteDB, Citus across nodes):
    /// instances poll the outbox's newest id every ``StoreEvents/pollInterval``, and migrations and pruning take a
    /// lease, a row with a holder and an expiry in `mockapns_leases`.
    case poll

    /// How often a polling instance reads the outbox: a change is seen within this (plus one reload) everywhere.
    public static let pollInterval: Duration = .milliseconds(250)
}
