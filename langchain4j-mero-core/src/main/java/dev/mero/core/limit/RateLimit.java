package dev.mero.core.limit;

import java.time.Duration;
import java.util.Objects;

/**
 * A rate limit: {@code permits} calls per {@code per}, with bursts of up to {@code burst} calls (by default as
 * many as {@code permits}). Enforced by a {@link RateLimiter} as a token bucket.
 *
 * <pre>{@code
 * RateLimit.perMinute(60);                              // 60 calls per minute, bursts of 60
 * RateLimit.of(10, Duration.ofSeconds(10)).withBurst(3); // one call per second on average, 3 at once
 * }</pre>
 *
 * <p>Bounds keep the limiter's arithmetic exact: {@code permits} and {@code burst} are 1 to
 * {@value #MAX_PERMITS}, {@code per} is 1 millisecond to 1 hour. Instances are immutable.
 */
public final class RateLimit {

    /** The largest number of permits or burst a limit accepts. */
    public static final int MAX_PERMITS = 1_000_000;

    private static final Duration MIN_PERIOD = Duration.ofMillis(1);
    private static final Duration MAX_PERIOD = Duration.ofHours(1);

    private final int permits;
    private final Duration per;
    private final int burst;

    private RateLimit(int permits, Duration per, int burst) {
        this.permits = checkCount("permits", permits);
        this.per = Objects.requireNonNull(per, "per");
        if (per.compareTo(MIN_PERIOD) < 0 || per.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("Rate limit period must be between 1 ms and 1 hour, was " + per);
        }
        this.burst = checkCount("burst", burst);
    }

    /**
     * A limit of {@code permits} calls per {@code per}, with bursts of up to {@code permits}.
     *
     * @param permits calls allowed per period, 1 to {@value #MAX_PERMITS}
     * @param per     the period, 1 millisecond to 1 hour
     * @return the limit
     * @throws IllegalArgumentException if a value is out of range
     */
    public static RateLimit of(int permits, Duration per) {
        return new RateLimit(permits, per, permits);
    }

    /**
     * A limit of {@code permits} calls per second.
     *
     * @param permits calls allowed per second
     * @return the limit
     */
    public static RateLimit perSecond(int permits) {
        return of(permits, Duration.ofSeconds(1));
    }

    /**
     * A limit of {@code permits} calls per minute.
     *
     * @param permits calls allowed per minute
     * @return the limit
     */
    public static RateLimit perMinute(int permits) {
        return of(permits, Duration.ofMinutes(1));
    }

    /**
     * A limit of {@code permits} calls per hour.
     *
     * @param permits calls allowed per hour
     * @return the limit
     */
    public static RateLimit perHour(int permits) {
        return of(permits, Duration.ofHours(1));
    }

    /**
     * The same average rate with another burst: how many calls may be made at once after a quiet period.
     *
     * @param burst 1 to {@value #MAX_PERMITS}
     * @return a new limit
     * @throws IllegalArgumentException if {@code burst} is out of range
     */
    public RateLimit withBurst(int burst) {
        return new RateLimit(permits, per, burst);
    }

    /**
     * Calls allowed per {@link #per()} on average.
     *
     * @return the permits
     */
    public int permits() {
        return permits;
    }

    /**
     * The period over which {@link #permits()} calls are allowed.
     *
     * @return the period
     */
    public Duration per() {
        return per;
    }

    /**
     * The most calls allowed at once, the token bucket's capacity.
     *
     * @return the burst
     */
    public int burst() {
        return burst;
    }

    /**
     * The limit in words for messages: {@code 60 calls per minute}, {@code 10 calls per 10 seconds, in bursts
     * of at most 3}.
     *
     * @return the description
     */
    public String describe() {
        String text = permits + (permits == 1 ? " call per " : " calls per ") + period();
        return burst == permits ? text : text + ", in bursts of at most " + burst;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RateLimit that
                && permits == that.permits && burst == that.burst && per.equals(that.per);
    }

    @Override
    public int hashCode() {
        return Objects.hash(permits, per, burst);
    }

    @Override
    public String toString() {
        return "RateLimit{" + describe() + "}";
    }

    private String period() {
        long nanos = per.toNanos();
        if (nanos == Duration.ofHours(1).toNanos()) {
            return "hour";
        }
        if (nanos % 60_000_000_000L == 0) {
            return unit(nanos / 60_000_000_000L, "minute");
        }
        if (nanos % 1_000_000_000L == 0) {
            return unit(nanos / 1_000_000_000L, "second");
        }
        return nanos % 1_000_000L == 0 ? unit(nanos / 1_000_000L, "millisecond") : unit(nanos, "nanosecond");
    }

    private static String unit(long amount, String unit) {
        return amount == 1 ? unit : amount + " " + unit + "s";
    }

    private static int checkCount(String name, int value) {
        if (value < 1 || value > MAX_PERMITS) {
            throw new IllegalArgumentException("Rate limit " + name + " must be between 1 and " + MAX_PERMITS
                    + ", was " + value);
        }
        return value;
    }
}
