package dev.mero.postgres;

import dev.mero.core.message.Messages;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;

/**
 * Token buckets in the table {@code mero_rate_bucket}. Each permit is one call of the function
 * {@code mero_take_permit}, which refills and takes under one row lock on the database's clock, so every
 * instance sees the same bucket and the same time. Thread-safe.
 */
final class PostgresRateLimitStore implements RateLimitStore {

    private static final long NANOS_PER_MICRO = 1_000L;

    private final Sql sql;

    PostgresRateLimitStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public long tryTake(String bucket, RateLimit limit) {
        Bucket state = call(bucket, limit, true);
        if (state.taken) {
            return 0;
        }
        long cost = cost(limit);
        long waitMicros = Math.max(1, ceilDiv(cost - state.tokens, limit.permits()));
        return waitMicros * NANOS_PER_MICRO;
    }

    @Override
    public int availablePermits(String bucket, RateLimit limit) {
        return (int) (call(bucket, limit, false).tokens / cost(limit));
    }

    @Override
    public String toString() {
        return "PostgresRateLimitStore";
    }

    private Bucket call(String bucket, RateLimit limit, boolean take) {
        Objects.requireNonNull(limit, "limit");
        String raw = key(bucket, limit);
        Keys.exact("context name", bucket); // refused before any SQL
        String key = Keys.stored("rate-limit bucket", raw);
        long cost = cost(limit);
        return sql.run("rate limit " + Messages.quote(bucket), connection -> {
            try (PreparedStatement statement = sql.prepare(connection,
                    "SELECT taken, tokens FROM mero_take_permit(?::text, ?::bigint, ?::bigint, ?::bigint, ?::boolean)")) {
                statement.setString(1, key);
                statement.setLong(2, cost * limit.burst());
                statement.setLong(3, cost);
                statement.setLong(4, limit.permits());
                statement.setBoolean(5, take);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        throw new SQLException("mero_take_permit returned no row");
                    }
                    return new Bucket(row.getBoolean(1), row.getLong(2));
                }
            }
        });
    }

    /** A bucket's name includes its limit: instances configured differently never mix token units. */
    static String key(String bucket, RateLimit limit) {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("A rate-limit bucket needs a non-blank name");
        }
        return bucket + " [" + limit.permits() + "/" + limit.per().toNanos() + "ns burst " + limit.burst() + "]";
    }

    /** One permit in tokens: the period in microseconds (RateLimit's period is at least 1 ms). */
    private static long cost(RateLimit limit) {
        return limit.per().toNanos() / NANOS_PER_MICRO;
    }

    private static long ceilDiv(long dividend, long divisor) {
        return (dividend + divisor - 1) / divisor;
    }

    private record Bucket(boolean taken, long tokens) {
    }
}
