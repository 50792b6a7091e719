package dev.mero.postgres;

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
 */
final class SchemaMigrations {

    /** The migrations, oldest first; the version of each is its position, from 1. */
    static final List<String> SCRIPTS = List.of("V1__shared_policy_state.sql", "V2__audit_detail.sql");

    /** An arbitrary key for pg_advisory_xact_lock, the same for every instance: ASCII "meroschm". */
    private static final long LOCK_KEY = 0x6d65726f7363686dL;

    private SchemaMigrations() {
    }

    static int latest() {
        return SCRIPTS.size();
    }

    /** Applies the migrations the database lacks; returns how many were applied. */
    static int migrate(Sql sql) {
        return sql.transaction("schema migration", connection -> {
            try (PreparedStatement lock = sql.prepare(connection, "SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, LOCK_KEY);
                lock.execute();
            }
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE IF NOT EXISTS mero_schema_version (version integer PRIMARY KEY,"
                        + " script text NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
            }
            int current = current(sql, connection);
            refuseNewer(current);
            for (int version = current + 1; version <= latest(); version++) {
                String script = SCRIPTS.get(version - 1);
                try (Statement apply = connection.createStatement()) {
                    apply.execute(read(script));
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
        int current = sql.run("schema check", connection -> {
            try (Statement exists = connection.createStatement();
                 ResultSet row = exists.executeQuery("SELECT to_regclass('mero_schema_version') IS NOT NULL")) {
                row.next();
                return row.getBoolean(1) ? current(sql, connection) : 0;
            }
        });
        refuseNewer(current);
        if (current < latest()) {
            throw new IllegalStateException("The policy store's schema is at version " + current + " but this "
                    + "library needs version " + latest() + ": apply the migrations once (migrate: true in the "
                    + "policy's store section, or PostgresPolicyStore.builder().migrate(true))");
        }
    }

    private static int current(Sql sql, Connection connection) throws SQLException {
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
