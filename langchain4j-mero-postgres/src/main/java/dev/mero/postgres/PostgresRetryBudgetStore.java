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
 * each run in one transaction under a transaction-level advisory lock on the call, so the check, the
 * reservation and the outcome are atomic across every instance. Thread-safe.
 */
final class PostgresRetryBudgetStore implements RetryBudgetStore {

    private static final String FORGET =
            "DELETE FROM mero_retry_budget WHERE scope = ?::text AND operation = ?::text AND digest = ?::text";

    private final Sql sql;

    PostgresRetryBudgetStore(Sql sql) {
        this.sql = sql;
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
     * One transaction under an advisory lock on the call: drops reservations whose lease passed, reads the
     * failures and the reservations of running attempts, and reserves one more if the budget allows it.
     */
    @Override
    public String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
        String stored = check(scope, key);
        Objects.requireNonNull(lease, "lease");
        String attempt = UUID.randomUUID().toString();
        int[] refused = sql.transaction("retry budget", connection -> {
            lock(connection, stored, key);
            execute(connection, "DELETE FROM mero_retry_attempt WHERE scope = ?::text AND operation = ?::text"
                    + " AND digest = ?::text AND lease_until < clock_timestamp()", stored, key);
            int failures = failures(connection, stored, key, window);
            int running;
            try (PreparedStatement statement = sql.prepare(connection, "SELECT count(*) FROM mero_retry_attempt"
                    + " WHERE scope = ?::text AND operation = ?::text AND digest = ?::text")) {
                bind(statement, stored, key);
                try (ResultSet row = statement.executeQuery()) {
                    row.next();
                    running = row.getInt(1);
                }
            }
            if (failures + running >= maxFailures) {
                return new int[] {failures, running};
            }
            try (PreparedStatement statement = sql.prepare(connection, "INSERT INTO mero_retry_attempt"
                    + " (scope, operation, digest, attempt, lease_until)"
                    + " VALUES (?, ?, ?, ?, clock_timestamp() + " + Sql.MICROS + ")")) {
                bind(statement, stored, key);
                statement.setString(4, attempt);
                statement.setLong(5, micros(lease));
                statement.executeUpdate();
            }
            return null;
        });
        if (refused == null) {
            return attempt;
        }
        if (refused[0] >= maxFailures) {
            throw RetryBudgetExceededException.exhausted(key.operation(), refused[0]);
        }
        throw RetryBudgetExceededException.held(key.operation(), refused[0], refused[1]);
    }

    /** One transaction under the call's advisory lock: counts the outcome and frees the reservation. */
    @Override
    public void endAttempt(String scope, CallKey key, String attempt, AttemptOutcome outcome, Duration window,
                           int maxFailures) {
        String stored = check(scope, key);
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(outcome, "outcome");
        sql.transaction("retry budget", connection -> {
            lock(connection, stored, key);
            if (outcome == AttemptOutcome.FAILED) {
                countFailure(connection, stored, key, window, maxFailures);
            } else if (outcome == AttemptOutcome.SUCCEEDED) {
                execute(connection, FORGET, stored, key);
            }
            try (PreparedStatement statement = sql.prepare(connection, "DELETE FROM mero_retry_attempt"
                    + " WHERE scope = ?::text AND operation = ?::text AND digest = ?::text AND attempt = ?::text")) {
                bind(statement, stored, key);
                statement.setString(4, attempt);
                return statement.executeUpdate();
            }
        });
    }

    /** A transaction-level advisory lock on one call: the first 8 bytes of the SHA-256 of its stored key. */
    private void lock(Connection connection, String stored, CallKey key) throws SQLException {
        byte[] digest;
        try {
            digest = MessageDigest.getInstance("SHA-256").digest((stored + '\u0000' + key.operation() + '\u0000'
                    + key.digest()).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
        try (PreparedStatement statement = sql.prepare(connection,
                "SELECT pg_catalog.pg_advisory_xact_lock(?::int8)")) {
            statement.setLong(1, ByteBuffer.wrap(digest).getLong());
            statement.execute();
        }
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
