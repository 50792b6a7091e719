package dev.mero.core.limit;

/**
 * Where the token buckets of shared {@link RateLimiter}s live when several application instances must
 * share one limit, for example a database table (see the {@code langchain4j-mero-postgres} module). A
 * limiter made by {@link RateLimiter#shared(RateLimit, RateLimitStore, String)} asks its store for every
 * permit; the default, {@link RateLimiter#of(RateLimit)}, keeps its bucket in memory.
 *
 * <p>A store follows the same token-bucket rule as the in-memory limiter: a bucket starts full with
 * {@link RateLimit#burst()} permits, each call takes one, permits flow back at {@code permits} per
 * {@code per}, and a refused call takes nothing. Taking a permit must be atomic across every instance that
 * uses the store, and every call must be bounded in time.
 *
 * <p>Failure is closed: a store that cannot answer throws {@link dev.mero.core.PolicyStoreUnavailableException}
 * and the call is refused; it never lets a call through unlimited. Implementations must be thread-safe.
 */
public interface RateLimitStore {

    /**
     * Takes one permit from a bucket if it has one.
     *
     * @param bucket the bucket's name, for example the context's name; buckets of the same name are one
     *               bucket for every instance using the store
     * @param limit  the limit the bucket enforces
     * @return 0 if a permit was taken, otherwise the nanoseconds until one will be available (at least 1)
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    long tryTake(String bucket, RateLimit limit);

    /**
     * The whole permits a bucket holds now, without taking any.
     *
     * @param bucket the bucket's name
     * @param limit  the limit the bucket enforces
     * @return 0 to {@link RateLimit#burst()}
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    int availablePermits(String bucket, RateLimit limit);
}
