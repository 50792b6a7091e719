package dev.mero.postgres;

import dev.mero.core.message.Messages;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The schema's versioned SQL migrations ({@code dev/mero/postgres/migration/V<n>__<name>.sql}), applied in
 * order, each once, only when asked: all of them in one transaction under an advisory lock, so that
 * instances starting together migrate once, and a failure leaves the schema as it was. The table
 * {@code mero_schema_version} records what was applied. Without migrating, the store only checks that the
 * schema is the version it needs and refuses to start otherwise: a schema is never altered silently.
 *
 * <p>Migrating a current schema is a no-op that needs no privilege beyond reading {@code
 * mero_schema_version}, so an application role with DML only may keep {@code migrate: true}. Every
 * statement and lock wait of a migration is bounded by the store's timeout, and each script names the
 * store's schema explicitly ({@code ${schema}}) while running with {@code pg_catalog} first.
 */
final class SchemaMigrations {

    /** The migrations, oldest first; the version of each is its position, from 1. */
    static final List<String> SCRIPTS = List.of("V1__shared_policy_state.sql", "V2__audit_detail.sql",
            "V3__pinned_names.sql", "V4__approval_queues.sql", "V5__replay_leases.sql",
            "V6__retry_attempts.sql", "V7__one_round_trip.sql", "V8__one_decision.sql",
            "V9__pinned_operators.sql", "V10__lighter_permit.sql");

    /** An arbitrary key for pg_advisory_xact_lock, the same for every instance: ASCII "meroschm". */
    static final long LOCK_KEY = 0x6d65726f7363686dL;

    private SchemaMigrations() {
    }

    static int latest() {
        return SCRIPTS.size();
    }

    /** Applies the migrations the database lacks; returns how many were applied. */
    static int migrate(Sql sql) {
        String schema = Sql.identifier(sql.schema());
        return sql.transaction("schema migration", connection -> {
            long millis = sql.timeoutSeconds() * 1_000L;
            try (Statement bound = connection.createStatement()) {
                bound.setQueryTimeout(sql.timeoutSeconds());
                bound.execute("SET LOCAL statement_timeout = " + millis);
                bound.execute("SET LOCAL lock_timeout = " + millis);
            }
            try (PreparedStatement lock = sql.prepare(connection, "SELECT pg_advisory_xact_lock(?::bigint)")) {
                lock.setLong(1, LOCK_KEY);
                lock.execute();
            }
            int current = current(sql, connection);
            refuseNewer(current);
            if (current == latest()) {
                return 0; // current: nothing to create, so no privilege beyond reading is needed
            }
            try (Statement create = connection.createStatement()) {
                create.setQueryTimeout(sql.timeoutSeconds());
                create.execute("CREATE TABLE IF NOT EXISTS " + schema + ".mero_schema_version (version integer"
                        + " PRIMARY KEY, script text NOT NULL, applied_at timestamptz NOT NULL"
                        + " DEFAULT clock_timestamp())");
            }
            for (int version = current + 1; version <= latest(); version++) {
                String script = SCRIPTS.get(version - 1);
                try (Statement apply = connection.createStatement()) {
                    apply.setQueryTimeout(sql.timeoutSeconds());
                    apply.execute(read(script).replace("${schema}", schema));
                }
                try (PreparedStatement record = sql.prepare(connection,
                        "INSERT INTO mero_schema_version (version, script) VALUES (?, ?)")) {
                    record.setInt(1, version);
                    record.setString(2, script);
                    record.executeUpdate();
                }
            }
            return latest() - current;
        });
    }

    /** Refuses a database whose schema is not the version this library needs. */
    static void verify(Sql sql) {
        int current = sql.run("schema check", connection -> current(sql, connection));
        refuseNewer(current);
        if (current < latest()) {
            throw new IllegalStateException("The policy store's schema is at version " + current + " but this "
                    + "library needs version " + latest() + " (schema " + Messages.quote(sql.schema()) + "): apply the "
                    + "migrations once as the schema's owner (migrate: true in the policy's store section, or "
                    + "PostgresPolicyStore.builder().migrate(true))");
        }
    }

    /** The applied version, 0 when the store's schema has no version table yet. */
    private static int current(Sql sql, Connection connection) throws SQLException {
        try (PreparedStatement exists = sql.prepare(connection,
                "SELECT pg_catalog.to_regclass(?::text) IS NOT NULL")) {
            exists.setString(1, Sql.identifier(sql.schema()) + ".mero_schema_version");
            try (ResultSet row = exists.executeQuery()) {
                if (!row.next() || !row.getBoolean(1)) {
                    return 0;
                }
            }
        }
        try (PreparedStatement statement = sql.prepare(connection,
                "SELECT coalesce(max(version), 0) FROM mero_schema_version");
             ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }

    private static void refuseNewer(int current) {
        if (current > latest()) {
            throw new IllegalStateException("The policy store's schema is at version " + current + ", newer than "
                    + "version " + latest() + " this library knows: upgrade langchain4j-mero-postgres");
        }
    }

    private static String read(String script) {
        try (InputStream in = SchemaMigrations.class.getResourceAsStream("migration/" + script)) {
            if (in == null) {
                throw new IllegalStateException("Migration " + script + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Migration " + script + " cannot be read", e);
        }
    }
}
