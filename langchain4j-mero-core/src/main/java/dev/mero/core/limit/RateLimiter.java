package dev.mero.core.limit;

import dev.mero.core.RateLimitedException;

import java.util.Objects;

/**
 * A token bucket that enforces one {@link RateLimit}: it starts full with {@link RateLimit#burst()} permits,
 * each call takes one, and permits flow back at {@code permits} per {@code per}, never beyond the burst.
 *
 * <pre>{@code
 * RateLimiter limiter = RateLimiter.of(RateLimit.perMinute(60));
 * limiter.acquire("worker_1");   // throws RateLimitedException when the bucket is empty
 * }</pre>
 *
 * <p>Arithmetic is exact (integers, no floating point): one permit is {@code per} in nanoseconds worth of
 * tokens, and every nanosecond adds {@code permits} tokens. A refused call takes nothing, so waiting
 * {@link RateLimitedException#retryAfterSeconds()} is always enough for the next call to pass unless other
 * calls take the permit first.
 *
 * <p>Thread-safe: concurrent calls never take more permits than the bucket holds. A limiter made by
 * {@link #shared(RateLimit, RateLimitStore, String)} keeps its bucket in a {@link RateLimitStore} instead,
 * so that several application instances share one limit; if that store cannot answer, the call is refused
 * with {@link dev.mero.core.PolicyStoreUnavailableException}.
 */
public final class RateLimiter {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final RateLimit limit;
    private final Ticker ticker;
    private final long cost;
    private final long capacity;
    private final Object lock = new Object();
    private final RateLimitStore store;
    private final String bucket;
    private long tokens;
    private long lastRefill;

    private RateLimiter(RateLimit limit, Ticker ticker) {
        this(limit, ticker, null, null);
    }

    private RateLimiter(RateLimit limit, Ticker ticker, RateLimitStore store, String bucket) {
        this.limit = Objects.requireNonNull(limit, "limit");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.store = store;
        this.bucket = bucket;
        this.cost = limit.per().toNanos();
        // RateLimit bounds burst and per so that this product stays far below Long.MAX_VALUE
        this.capacity = cost * limit.burst();
        this.tokens = capacity;
        this.lastRefill = ticker.nanos();
    }

    /**
     * A limiter on the system's monotonic clock, starting full.
     *
     * @param limit the limit to enforce
     * @return the limiter
     */
    public static RateLimiter of(RateLimit limit) {
        return of(limit, Ticker.system());
    }

    /**
     * A limiter on the given clock, starting full; tests pass a clock they move by hand.
     *
     * @param limit  the limit to enforce
     * @param ticker the time source
     * @return the limiter
     */
    public static RateLimiter of(RateLimit limit, Ticker ticker) {
        return new RateLimiter(limit, ticker);
    }

    /**
     * A limiter whose bucket lives in a store shared by several application instances: every instance that
     * uses the same store and bucket name draws from one bucket.
     *
     * @param limit  the limit to enforce
     * @param store  where the bucket lives
     * @param bucket the bucket's name, for example the context's name
     * @return the limiter
     */
    public static RateLimiter shared(RateLimit limit, RateLimitStore store, String bucket) {
        Objects.requireNonNull(store, "store");
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("A shared rate limiter needs a non-blank bucket name");
        }
        return new RateLimiter(limit, Ticker.system(), store, bucket);
    }

    /**
     * The limit this limiter enforces.
     *
     * @return the limit
     */
    public RateLimit limit() {
        return limit;
    }

    /**
     * Takes one permit for a call of the named context, or refuses the call.
     *
     * @param contextName the context's name, used in the message
     * @throws RateLimitedException if no permit is available; its {@code retryAfterSeconds()} is the wait,
     *                              rounded up to whole seconds
     * @throws dev.mero.core.PolicyStoreUnavailableException if a shared limiter's store did not answer
     */
    public void acquire(String contextName) {
        long waitNanos = tryTake();
        if (waitNanos > 0) {
            throw refusal(contextName, waitNanos);
        }
    }

    /** The refusal of a call that must wait {@code waitNanos} for a permit. */
    RateLimitedException refusal(String contextName, long waitNanos) {
        return RateLimitedException.exceeded(contextName, limit.describe(), retryAfterSeconds(waitNanos));
    }

    /** The store of a shared limiter, {@code null} for one in memory. */
    RateLimitStore store() {
        return store;
    }

    /** The bucket's name in the store, {@code null} for a limiter in memory. */
    String bucket() {
        return bucket;
    }

    /**
     * Takes one permit if one is available, without throwing.
     *
     * @return {@code true} if a permit was taken
     */
    public boolean tryAcquire() {
        return tryTake() == 0;
    }

    /**
     * The whole permits available now.
     *
     * @return 0 to {@link RateLimit#burst()}
     */
    public int availablePermits() {
        if (store != null) {
            return store.availablePermits(bucket, limit);
        }
        synchronized (lock) {
            refill();
            return (int) (tokens / cost);
        }
    }

    @Override
    public String toString() {
        return store != null ? "RateLimiter{" + limit.describe() + ", shared bucket=" + bucket + "}"
                : "RateLimiter{" + limit.describe() + ", available=" + availablePermits() + "}";
    }

    /** Takes a permit and returns 0, or takes nothing and returns the nanoseconds until one is available. */
    private long tryTake() {
        if (store != null) {
            return store.tryTake(bucket, limit);
        }
        synchronized (lock) {
            refill();
            if (tokens >= cost) {
                tokens -= cost;
                return 0;
            }
            return ceilDiv(cost - tokens, limit.permits());
        }
    }

    private void refill() {
        long now = ticker.nanos();
        long elapsed = now - lastRefill;
        if (elapsed <= 0) {
            return; // a clock that stands still or steps back adds nothing
        }
        lastRefill = now;
        long missing = capacity - tokens;
        // compare before multiplying: a long idle period would overflow elapsed * permits
        tokens = elapsed >= ceilDiv(missing, limit.permits()) ? capacity : tokens + elapsed * limit.permits();
    }

    private static int retryAfterSeconds(long waitNanos) {
        return (int) Math.max(1, ceilDiv(waitNanos, NANOS_PER_SECOND));
    }

    private static long ceilDiv(long dividend, long divisor) {
        return (dividend + divisor - 1) / divisor;
    }
}
