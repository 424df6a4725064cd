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
        StoreMigration(version: 3, summary: "search: the words of each record, trigram-indexed, and case-folded indexes for the search grammar", statements: [
            "ALTER TABLE mockapns_records ADD COLUMN search_text text",
            // Rows written before: the same fields as `SearchQuery.searchText(of:)`, read back from the line.
            """
            UPDATE mockapns_records SET search_text = lower(concat_ws(E'\\n', topic,
                CASE jsonb_typeof(line::jsonb #> '{payload,aps,alert}')
                    WHEN 'string' THEN line::jsonb #>> '{payload,aps,alert}'
                    ELSE concat_ws(E'\\n', line::jsonb #>> '{payload,aps,alert,title}', line::jsonb #>> '{payload,aps,alert,body}')
                END, reason))
            """,
            // pg_trgm lets `LIKE '%word%'` use an index. It ships with Debian's server and is a trusted extension (a
            // database owner may create it); where it cannot be created, word searches read rows in id order instead.
            """
            DO $$ BEGIN
                CREATE EXTENSION IF NOT EXISTS pg_trgm;
            EXCEPTION WHEN others THEN
                RAISE NOTICE 'mockapns: pg_trgm is not available (%), word searches will scan', SQLERRM;
            END $$
            """,
            """
            DO $$ BEGIN
                IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
                    CREATE INDEX mockapns_records_search ON mockapns_records USING gin (search_text gin_trgm_ops);
                END IF;
            END $$
            """,
            "CREATE INDEX mockapns_records_topic_folded ON mockapns_records (namespace, lower(topic), id)",
            "CREATE INDEX mockapns_records_reason_folded ON mockapns_records (namespace, lower(reason), id)",
        ]),
        StoreMigration(version: 4, summary: "fault rules: how often each has fired across the instances (counted rules are claimed); how far retention pruned", statements: [
            "ALTER TABLE mockapns_faults ADD COLUMN fired integer NOT NULL DEFAULT 0",
            // The highest record id retention has deleted in each namespace: a follower behind it was passed by.
            "CREATE TABLE mockapns_prune_marks (namespace text PRIMARY KEY, pruned_through bigint NOT NULL)",
        ]),
        StoreMigration(version: 5, summary: "virtual devices: the changes made to each device (online, app state, settings, taps…), shared by the instances", statements: [
            """
            CREATE TABLE mockapns_device_changes (
                id bigserial PRIMARY KEY,
                namespace text NOT NULL,
                token text NOT NULL,
                change text NOT NULL
            )
            """,
            "CREATE INDEX mockapns_device_changes_token ON mockapns_device_changes (namespace, token, id)",
        ]),
    ]

    /// The channel instances `LISTEN` on for changes to shared device states and fault rules; the payload is the
    /// namespace, so each instance reloads only its own.
    static let sharedStateChannel = "mockapns_shared_state"

    /// The newest version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }
}
