package dev.mero.postgres;

import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RetryBudgetStore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;

/**
 * Retry-budget counts in the table {@code mero_retry_budget}, one row per scope and call (operation and
 * argument digest, never the arguments). Each method is one atomic statement on the database's clock.
 * Thread-safe.
 */
final class PostgresRetryBudgetStore implements RetryBudgetStore {

    private final Sql sql;

    PostgresRetryBudgetStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public int failures(String scope, CallKey key, Duration window) {
        String stored = check(scope, key);
        return sql.run("retry budget", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "SELECT failures FROM mero_retry_budget"
                    + " WHERE scope = ?::text AND operation = ?::text AND digest = ?::text"
                    + " AND last_failure > clock_timestamp() - " + Sql.MICROS)) {
                statement.setString(1, stored);
                statement.setString(2, key.operation());
                statement.setString(3, key.digest());
                statement.setLong(4, micros(window));
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? row.getInt(1) : 0;
                }
            }
        });
    }

    @Override
    public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
        String stored = check(scope, key);
        return sql.run("retry budget", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "INSERT INTO mero_retry_budget AS r"
                    + " (scope, operation, digest, failures, last_failure) VALUES (?, ?, ?, 1, clock_timestamp())"
                    + " ON CONFLICT (scope, operation, digest) DO UPDATE SET"
                    + " failures = CASE WHEN r.last_failure <= clock_timestamp() - " + Sql.MICROS
                    + " THEN 1 ELSE LEAST(r.failures + 1, ?) END, last_failure = clock_timestamp()"
                    + " RETURNING failures")) {
                statement.setString(1, stored);
                statement.setString(2, key.operation());
                statement.setString(3, key.digest());
                statement.setLong(4, micros(window));
                statement.setInt(5, maxFailures);
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
    }

    @Override
    public void recordSuccess(String scope, CallKey key) {
        String stored = check(scope, key);
        sql.run("retry budget", connection -> {
            try (PreparedStatement statement = sql.prepare(connection,
                    "DELETE FROM mero_retry_budget WHERE scope = ?::text AND operation = ?::text AND digest = ?::text")) {
                statement.setString(1, stored);
                statement.setString(2, key.operation());
                statement.setString(3, key.digest());
                return statement.executeUpdate();
            }
        });
    }

    @Override
    public String toString() {
        return "PostgresRetryBudgetStore";
    }

    private static String check(String scope, CallKey key) {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
        return Keys.stored("retry-budget scope", scope);
    }

    private static long micros(Duration window) {
        return window.toNanos() / 1_000L;
    }
}
