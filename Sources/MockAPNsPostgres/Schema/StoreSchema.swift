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
        StoreMigration(version: 6, summary: "records partitioned by time, searched through word blocks; the outbox and leases of --store-events poll", statements: [
            "CREATE TABLE mockapns_store_settings (name text PRIMARY KEY, value text NOT NULL)",
            // The span is fixed when the table is partitioned: instances creating partitions must agree on their bounds.
            """
            INSERT INTO mockapns_store_settings (name, value)
            VALUES ('partition_span_ms', coalesce(nullif(current_setting('\(partitionSpanSetting)', true), ''), '\(defaultPartitionSpanMillis)'))
            """,
            // The partition holding `at_ms`, created when missing; its name says where it starts (UTC). Two instances
            // creating the same one at once: the second finds it made.
            #"""
            CREATE FUNCTION mockapns_records_partition(at_ms bigint) RETURNS text LANGUAGE plpgsql AS $$
            DECLARE
                span numeric := (SELECT value::numeric FROM mockapns_store_settings WHERE name = 'partition_span_ms');
                low numeric := floor(at_ms::numeric / span) * span;
                high numeric := low + span;
                part text;
            BEGIN
                IF low >= 0 AND low < 253402300800000 THEN
                    part := 'mockapns_records_' || to_char(to_timestamp(low / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD"_"HH24MI');
                ELSE
                    part := 'mockapns_records_ms' || replace(low::text, '-', 'm');
                END IF;
                IF to_regclass(part) IS NULL THEN
                    BEGIN
                        EXECUTE format('CREATE TABLE %I PARTITION OF mockapns_records FOR VALUES FROM (%s) TO (%s)', part,
                            CASE WHEN low < -9223372036854775808 THEN 'MINVALUE' ELSE low::text END,
                            CASE WHEN high > 9223372036854775807 THEN 'MAXVALUE' ELSE high::text END);
                    EXCEPTION WHEN duplicate_table OR unique_violation THEN
                        NULL;
                    END;
                END IF;
                RETURN part;
            END $$
            """#,
            // Today's table steps aside; its id sequence carries on in the partitioned one.
            "ALTER TABLE mockapns_records RENAME TO mockapns_records_v5",
            "ALTER TABLE mockapns_records_v5 RENAME CONSTRAINT mockapns_records_pkey TO mockapns_records_v5_pkey",
            "ALTER SEQUENCE mockapns_records_id_seq OWNED BY NONE",
            """
            DROP INDEX IF EXISTS mockapns_records_topic, mockapns_records_token, mockapns_records_status, mockapns_records_reason,
                mockapns_records_apns_id, mockapns_records_namespace, mockapns_records_received, mockapns_records_search,
                mockapns_records_topic_folded, mockapns_records_reason_folded
            """,
            """
            CREATE TABLE mockapns_records (
                id bigint NOT NULL DEFAULT nextval('mockapns_records_id_seq'),
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
                line text NOT NULL,
                search_text text
            ) PARTITION BY RANGE (received_ms)
            """,
            "ALTER SEQUENCE mockapns_records_id_seq OWNED BY mockapns_records.id",
            // Every index is paid for by every record, and those whose newest entries all land on one page (ids, times)
            // make concurrent writers queue for it; so: no primary key (ids come from the sequence, every query names
            // the namespace and uses the (namespace, id) index), received times through a BRIN index (rows arrive in
            // time order; a few bytes per 128 pages), reasons indexed for the rejected pushes only, and topic and reason
            // filtered through their case-folded indexes alone (an exact filter rechecks the row).
            "CREATE INDEX mockapns_records_token ON mockapns_records (namespace, token, id)",
            "CREATE INDEX mockapns_records_status ON mockapns_records (namespace, status, id)",
            "CREATE INDEX mockapns_records_apns_id ON mockapns_records (namespace, apns_id)",
            "CREATE INDEX mockapns_records_namespace ON mockapns_records (namespace, id)",
            "CREATE INDEX mockapns_records_received ON mockapns_records USING brin (received_ms)",
            "CREATE INDEX mockapns_records_topic_folded ON mockapns_records (namespace, lower(topic), id)",
            "CREATE INDEX mockapns_records_reason_folded ON mockapns_records (namespace, lower(reason), id) WHERE reason IS NOT NULL",
            """
            SELECT count(mockapns_records_partition(first)) FROM (
                SELECT min(received_ms) AS first FROM mockapns_records_v5
                GROUP BY floor(received_ms::numeric / (SELECT value::numeric FROM mockapns_store_settings WHERE name = 'partition_span_ms'))
            ) spans
            """,
            """
            INSERT INTO mockapns_records (id, namespace, instance, seq, received_ms, token, topic, push_type, status, reason,
                                          apns_id, connection_churn, line, search_text)
            SELECT id, namespace, instance, seq, received_ms, token, topic, push_type, status, reason,
                   apns_id, connection_churn, line, search_text FROM mockapns_records_v5
            """,
            "DROP TABLE mockapns_records_v5",
            // Search: the distinct words of each written batch, one row per batch and its id range, trigram-indexed. A
            // word search finds the few blocks holding it, then reads only their ranges of records.
            """
            CREATE TABLE mockapns_search_blocks (
                namespace text NOT NULL,
                first_id bigint NOT NULL,
                last_id bigint NOT NULL,
                words text NOT NULL
            )
            """,
            "CREATE INDEX mockapns_search_blocks_last ON mockapns_search_blocks (namespace, last_id)",
            """
            DO $$ BEGIN
                IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
                    CREATE INDEX mockapns_search_blocks_words ON mockapns_search_blocks USING gin (words gin_trgm_ops);
                END IF;
            END $$
            """,
            // Blocks for the records already there, 2 000 ids at a time, split into words as the writer splits them.
            #"""
            INSERT INTO mockapns_search_blocks (namespace, first_id, last_id, words)
            SELECT namespace, min(id), max(id), coalesce(string_agg(DISTINCT word, E'\n'), '') FROM (
                SELECT namespace, id, regexp_split_to_table(coalesce(search_text, ''), '[\x01-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+') AS word
                FROM mockapns_records
            ) words WHERE word <> '' GROUP BY namespace, id / 2000
            """#,
            // --store-events poll: the outbox every change writes a row to, and leases instead of advisory locks.
            "CREATE TABLE mockapns_store_events (id bigserial PRIMARY KEY, namespace text NOT NULL)",
            "CREATE INDEX mockapns_store_events_namespace ON mockapns_store_events (namespace, id)",
            "CREATE TABLE IF NOT EXISTS mockapns_leases (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)",
        ]),
        StoreMigration(version: 7, summary: "FCM records: one row per request to the FCM front door, beside the APNs pushes it became", statements: [
            // A few FCM requests per iOS push at most, read by project, message name and status: a plain table with
            // the namespace first in every index, like the records before partitioning.
            """
            CREATE TABLE mockapns_fcm_records (
                id bigserial PRIMARY KEY,
                namespace text NOT NULL,
                instance text NOT NULL,
                seq bigint NOT NULL,
                received_ms bigint NOT NULL,
                project text NOT NULL,
                name text,
                message_id text,
                status integer NOT NULL,
                line text NOT NULL
            )
            """,
            "CREATE INDEX mockapns_fcm_records_namespace ON mockapns_fcm_records (namespace, id)",
            "CREATE INDEX mockapns_fcm_records_project ON mockapns_fcm_records (namespace, project, id)",
            "CREATE INDEX mockapns_fcm_records_message ON mockapns_fcm_records (namespace, message_id)",
            "CREATE INDEX mockapns_fcm_records_instance ON mockapns_fcm_records (namespace, instance, seq)",
            "CREATE INDEX mockapns_fcm_records_received ON mockapns_fcm_records USING brin (received_ms)",
        ]),
    ]

    /// The channel instances `LISTEN` on for changes to shared device states and fault rules; the payload is the
    /// namespace, so each instance reloads only its own.
    static let sharedStateChannel = "mockapns_shared_state"

    /// The session setting the migration that partitions the records reads its span from (`set_config` before
    /// migrating); it is kept in `mockapns_store_settings` from then on.
    static let partitionSpanSetting = "mockapns.partition_span_ms"

    /// One partition per day unless `--store-partition-span` says otherwise when the table is partitioned.
    public static let defaultPartitionSpanMillis: Int64 = 86_400_000

    /// The newest version this build knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }
}
