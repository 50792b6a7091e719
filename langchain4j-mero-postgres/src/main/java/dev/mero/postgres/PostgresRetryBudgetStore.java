package dev.mero.postgres;

import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RetryBudgetStore;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Retry-budget counts in the table {@code mero_retry_budget}, one row per scope and call (operation and
 * argument digest, never the arguments). Each method is one atomic statement on the database's clock.
 * Running attempts are reserved in {@code mero_retry_attempt}: {@link #beginAttempt} and {@link #endAttempt}
 * are each one call of a function (one round trip, one transaction) under a transaction-level advisory lock on the call, so the check, the
 * reservation and the outcome are atomic across every instance. Thread-safe.
 */
final class PostgresRetryBudgetStore implements RetryBudgetStore {

    private static final String FORGET =
            "DELETE FROM mero_retry_budget WHERE scope = ?::text AND operation = ?::text AND digest = ?::text";

    private final Sql sql;

    private final String begin;
    private final String end;

    PostgresRetryBudgetStore(Sql sql) {
        this.sql = sql;
        String text = "?::pg_catalog.text";
        String int8 = "?::pg_catalog.int8";
        String int4 = "?::pg_catalog.int4";
        this.begin = "SELECT reserved, failures, running FROM " + sql.qualified("mero_retry_begin") + "("
                + String.join(", ", text, text, text, int8, int8, int4, text, int8) + ")";
        this.end = "SELECT " + sql.qualified("mero_retry_end") + "("
                + String.join(", ", text, text, text, int8, text, text, int8, int4) + ")";
    }

    @Override
    public int failures(String scope, CallKey key, Duration window) {
        String stored = check(scope, key);
        return sql.run("retry budget", connection -> failures(connection, stored, key, window));
    }

    @Override
    public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
        String stored = check(scope, key);
        return sql.run("retry budget", connection -> countFailure(connection, stored, key, window, maxFailures));
    }

    private int countFailure(Connection connection, String stored, CallKey key, Duration window, int maxFailures)
            throws SQLException {
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
    }

    /**
     * One call of {@code mero_retry_begin} (one round trip, one transaction): under a transaction-level
     * advisory lock on the call it drops reservations whose lease passed, reads the failures and the
     * reservations of running attempts, and reserves one more if the budget allows it.
     */
    @Override
    public String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
        String stored = check(scope, key);
        Objects.requireNonNull(lease, "lease");
        String attempt = UUID.randomUUID().toString();
        int[] refused = sql.call("retry budget", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, begin)) {
                bind(statement, stored, key);
                statement.setLong(4, lockKey(stored, key));
                statement.setLong(5, micros(window));
                statement.setInt(6, maxFailures);
                statement.setString(7, attempt);
                statement.setLong(8, micros(lease));
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    return row.getBoolean(1) ? null : new int[] {row.getInt(2), row.getInt(3)};
                }
            }
        });
        if (refused == null) {
            return attempt;
        }
        if (refused[0] >= maxFailures) {
            throw RetryBudgetExceededException.exhausted(key.operation(), refused[0]);
        }
        throw RetryBudgetExceededException.held(key.operation(), refused[0], refused[1]);
    }

    /** One call of {@code mero_retry_end} under the call's advisory lock: counts the outcome, frees the reservation. */
    @Override
    public void endAttempt(String scope, CallKey key, String attempt, AttemptOutcome outcome, Duration window,
                           int maxFailures) {
        String stored = check(scope, key);
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(outcome, "outcome");
        sql.call("retry budget", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, end)) {
                bind(statement, stored, key);
                statement.setLong(4, lockKey(stored, key));
                statement.setString(5, attempt);
                statement.setString(6, outcome.name());
                statement.setLong(7, micros(window));
                statement.setInt(8, maxFailures);
                return statement.execute();
            }
        });
    }

    /**
     * The key of the transaction-level advisory lock on one call: the first 8 bytes of the SHA-256 of its
     * stored key (the same lock as the statements of schema version 6 took, so older instances still exclude).
     */
    private static long lockKey(String stored, CallKey key) {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest((stored + '\u0000' + key.operation() + '\u0000'
                    + key.digest()).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        return ByteBuffer.wrap(digest).getLong();
    }

    private int failures(Connection connection, String stored, CallKey key, Duration window) throws SQLException {
        try (PreparedStatement statement = sql.prepare(connection, "SELECT failures FROM mero_retry_budget"
                + " WHERE scope = ?::text AND operation = ?::text AND digest = ?::text"
                + " AND last_failure > clock_timestamp() - " + Sql.MICROS)) {
            bind(statement, stored, key);
            statement.setLong(4, micros(window));
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? row.getInt(1) : 0;
            }
        }
    }

    private int execute(Connection connection, String update, String stored, CallKey key) throws SQLException {
        try (PreparedStatement statement = sql.prepare(connection, update)) {
            bind(statement, stored, key);
            return statement.executeUpdate();
        }
    }

    private static void bind(PreparedStatement statement, String stored, CallKey key) throws SQLException {
        statement.setString(1, stored);
        statement.setString(2, key.operation());
        statement.setString(3, key.digest());
    }

    @Override
    public void recordSuccess(String scope, CallKey key) {
        String stored = check(scope, key);
        sql.run("retry budget", connection -> execute(connection, FORGET, stored, key));
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
