package dev.mero.postgres;

import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;
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
 * reservation and the outcome are atomic across every instance; {@link #takeAndBeginAttempt} with this policy
 * store's rate limits takes the permit in the same call. Since schema version 8 these calls commit without
 * waiting for the WAL flush: a database crash may forget the reservations and failures of its last moments.
 * Thread-safe.
 */
final class PostgresRetryBudgetStore implements RetryBudgetStore {

    private static final String FORGET =
            "DELETE FROM mero_retry_budget WHERE scope = ?::text AND operation = ?::text AND digest = ?::text";

    private final Sql sql;

    private final String end;
    private final PostgresRateLimitStore rateLimits;
    private final DecisionCall decide;

    PostgresRetryBudgetStore(Sql sql, PostgresRateLimitStore rateLimits, DecisionCall decide) {
        this.sql = sql;
        this.rateLimits = rateLimits;
        this.decide = decide;
        String text = "?::pg_catalog.text";
        String int8 = "?::pg_catalog.int8";
        String int4 = "?::pg_catalog.int4";
        this.end = "SELECT " + sql.qualified("mero_retry_finish") + "("
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
     * One call of {@code mero_decide} without a permit (one round trip, one transaction): under a
     * transaction-level advisory lock on the call it drops reservations whose lease passed, reads the failures
     * and the reservations of running attempts, and reserves one more if the budget allows it.
     */
    @Override
    public String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
        DecisionCall.Reservation reservation = reservation(scope, key, window, maxFailures, lease);
        return reserved(decide.call("retry budget", null, reservation), reservation, key, maxFailures);
    }

    /**
     * With this store's own rate limits, one call of {@code mero_decide}: the bucket's permit and, if it was
     * taken, the attempt's reservation, in one round trip and one transaction. Any other rate-limit store is
     * asked first, as the default does.
     */
    @Override
    public LimitedAttempt takeAndBeginAttempt(RateLimitStore limits, String bucket, RateLimit limit, String scope,
                                              CallKey key, Duration window, int maxFailures, Duration lease) {
        if (limits != rateLimits) {
            return RetryBudgetStore.super.takeAndBeginAttempt(limits, bucket, limit, scope, key, window, maxFailures,
                    lease);
        }
        DecisionCall.Permit permit = rateLimits.permit(bucket, limit);
        DecisionCall.Reservation reservation = reservation(scope, key, window, maxFailures, lease);
        DecisionCall.Outcome outcome = decide.call("rate limit and retry budget", permit, reservation);
        long waitNanos = PostgresRateLimitStore.waitNanos(outcome);
        return new LimitedAttempt(waitNanos, waitNanos > 0 ? null : reserved(outcome, reservation, key, maxFailures));
    }

    private DecisionCall.Reservation reservation(String scope, CallKey key, Duration window, int maxFailures,
                                                 Duration lease) {
        String stored = check(scope, key);
        Objects.requireNonNull(lease, "lease");
        return new DecisionCall.Reservation(stored, key.operation(), key.digest(), lockKey(stored, key),
                micros(window), maxFailures, UUID.randomUUID().toString(), micros(lease));
    }

    /** The reservation's id, or the refusal of a call whose budget is spent or held by running attempts. */
    private static String reserved(DecisionCall.Outcome outcome, DecisionCall.Reservation reservation, CallKey key,
                                   int maxFailures) {
        if (outcome.reserved()) {
            return reservation.attempt();
        }
        if (outcome.failures() >= maxFailures) {
            throw RetryBudgetExceededException.exhausted(key.operation(), outcome.failures());
        }
        throw RetryBudgetExceededException.held(key.operation(), outcome.failures(), outcome.running());
    }

    /**
     * One call of {@code mero_retry_finish} ({@code mero_retry_end}, committed asynchronously) under the call's
     * advisory lock: counts the outcome, frees the reservation.
     */
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
