package dev.mero.postgres;

import dev.mero.core.message.Messages;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;

/**
 * Rate limits in the table {@code mero_rate_limit}, one row per bucket name (a context's lineage) whatever
 * limit each instance was configured with. Each permit is one call of the function {@code mero_rate_take}
 * (one round trip), which decides under one row lock on the database's clock, so every instance sees the
 * same bucket and the same time (since schema version 8 through {@code mero_decide}, which commits without waiting
 * for the WAL flush: a database crash may give back the permits of its last moments). A permit the bucket has
 * is taken by {@code mero_decide}'s own {@code UPDATE} sent as one statement, without the function call
 * ({@link DecisionCall#take}). The row holds no token unit, only the instant the bucket is full again,
 * and the limit it enforces: the stricter of the caller's and the one held (the lower rate, then the smaller
 * burst), until no instance configured with the held limit has used the bucket for the limit hold
 * ({@link PostgresPolicyStore.Builder#limitHold}). So a rolling deploy that changes a context's limit keeps one
 * bucket under the stricter limit, and the looser one applies once the last instance with the stricter one has
 * been quiet for that long. Thread-safe.
 */
final class PostgresRateLimitStore implements RateLimitStore {

    private static final long NANOS_PER_MICRO = 1_000L;

    private final Sql sql;
    private final String take;
    private final long holdMicros;
    private final DecisionCall decide;

    PostgresRateLimitStore(Sql sql, Duration hold, DecisionCall decide) {
        this.sql = sql;
        this.decide = decide;
        this.holdMicros = hold.toNanos() / NANOS_PER_MICRO;
        this.take = "SELECT taken, wait_us, available FROM " + sql.qualified("mero_rate_take")
                + "(?::pg_catalog.text, ?::pg_catalog.int8, ?::pg_catalog.int8, ?::pg_catalog.int8,"
                + " ?::pg_catalog.int8, ?::pg_catalog.bool)";
    }

    @Override
    public long tryTake(String bucket, RateLimit limit) {
        DecisionCall.Permit permit = permit(bucket, limit);
        return decide.take("rate limit " + Messages.quote(bucket), permit);
    }

    @Override
    public int availablePermits(String bucket, RateLimit limit) {
        return (int) call(bucket, limit, false).available;
    }

    @Override
    public String toString() {
        return "PostgresRateLimitStore";
    }

    /** The bucket's stored key, refused before any SQL if it is blank or unstorable. */
    String key(String bucket) {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("A rate-limit bucket needs a non-blank name");
        }
        return Keys.stored("rate-limit bucket", bucket);
    }

    /** The permit a call of {@code mero_decide} takes from the bucket. */
    DecisionCall.Permit permit(String bucket, RateLimit limit) {
        Objects.requireNonNull(limit, "limit");
        return new DecisionCall.Permit(key(bucket), limit, holdMicros);
    }

    /** The wait a permit's outcome means: 0 if it was taken, otherwise at least one nanosecond. */
    static long waitNanos(DecisionCall.Outcome outcome) {
        return outcome.taken() ? 0 : Math.max(1, outcome.waitMicros()) * NANOS_PER_MICRO;
    }

    private Bucket call(String bucket, RateLimit limit, boolean take) {
        Objects.requireNonNull(limit, "limit");
        String key = key(bucket); // refused before any SQL
        return sql.call("rate limit " + Messages.quote(bucket), connection -> {
            try (PreparedStatement statement = sql.prepare(connection, this.take)) {
                statement.setString(1, key);
                statement.setLong(2, limit.per().toNanos() / NANOS_PER_MICRO);
                statement.setLong(3, limit.permits());
                statement.setLong(4, limit.burst());
                statement.setLong(5, holdMicros);
                statement.setBoolean(6, take);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        throw new SQLException("mero_rate_take returned no row");
                    }
                    // round the wait up to whole microseconds: waiting that long is always enough
                    BigDecimal wait = row.getBigDecimal(2).setScale(0, RoundingMode.CEILING);
                    return new Bucket(row.getBoolean(1), wait.longValueExact(), row.getLong(3));
                }
            }
        });
    }

    private record Bucket(boolean taken, long waitMicros, long available) {
    }
}
