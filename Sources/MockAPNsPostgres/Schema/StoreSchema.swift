/// The store's tables, as the migrations that build them: append a step for any change, never edit a released one
/// (a database that applied it would not see the edit).
enum StoreSchema {
    /// The table recording which migrations a database has.
    static let versionTable = "mockapns_schema"

    /// Taken (`pg_advisory_lock`) while migrating, so instances starting together migrate one at a time:
    /// "mockapns" in ASCII.
    static let migrationLockKey: Int64 = 0x6D6F_636B_6170_6E73

    /// Taken (`pg_try_advisory_xact_lock`) while pruning, so one instance at a time prunes and the others skip
    /// their turn: "mockprun".
    static let pruneLockKey: Int64 = 0x6D6F_636B_7072_756E

    /// Every step, in order.
    static let migrations: [StoreMigration] = [
        StoreMigration(version: 1, summary: "records: one row per answered request, with the fields searches filter on", statements: [
            """
            CREATE TABLE mockapns_records (
                id bigserial PRIMARY KEY,
                namespace text NOT NULL,
                instance text NOT NULL,
                seq bigint NOT NULL,
                received_ms bigint NOT NULL,
                token text,
                topic text,
                push_type text,
                status integer NOT NULL,
                reason text,
                apns_id text,
                connection_churn boolean NOT NULL DEFAULT false,
                line text NOT NULL
            )
            """,
            "CREATE INDEX mockapns_records_topic ON mockapns_records (namespace, topic, id)",
            "CREATE INDEX mockapns_records_token ON mockapns_records (namespace, token, id)",
            "CREATE INDEX mockapns_records_status ON mockapns_records (namespace, status, id)",
            "CREATE INDEX mockapns_records_reason ON mockapns_records (namespace, reason, id)",
            "CREATE INDEX mockapns_records_apns_id ON mockapns_records (namespace, apns_id)",
            "CREATE INDEX mockapns_records_namespace ON mockapns_records (namespace, id)",
            "CREATE INDEX mockapns_records_received ON mockapns_records (namespace, received_ms)",
        ]),
        StoreMigration(version: 2, summary: "device states and fault rules shared by the instances of a namespace", statements: [
            """
            CREATE TABLE mockapns_devices (
                namespace text NOT NULL,
                token text NOT NULL,
                state text NOT NULL,
                PRIMARY KEY (namespace, token)
            )
            """,
            """
            CREATE TABLE mockapns_faults (
                id bigserial PRIMARY KEY,
                namespace text NOT NULL,
                rule text NOT NULL
            )
            """,
            "CREATE INDEX mockapns_faults_namespace ON mockapns_faults (namespace, id)",
        ]),
    ]

    /// The channel instances `LISTEN` on for changes to shared device states and fault rules; the payload is the
    /// namespace, so each instance reloads only its own.
    static let sharedStateChannel = "mockapns_shared_state"

    /// The newest version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }
}
