package dev.mero.core.limit;

import java.time.Duration;

/**
 * Where a {@link RetryBudget} keeps its failure counts when several application instances must share them,
 * for example a database table (see the {@code langchain4j-mero-postgres} module). Set it with
 * {@link RetryBudget.Builder#store(RetryBudgetStore, String)}; without one the budget counts in memory.
 *
 * <p>Counts are kept per scope (one budget, usually one context) and {@link CallKey} (only the key's
 * operation and digest, never the arguments). Each method is atomic across every instance using the store
 * and bounded in time. Failure is closed: a store that cannot answer throws
 * {@link dev.mero.core.PolicyStoreUnavailableException}, so a call whose budget cannot be checked is not
 * run. Implementations must be thread-safe.
 */
public interface RetryBudgetStore {

    /**
     * How many times in a row a call has failed, counting only failures within the window of the last one.
     *
     * @param scope  the budget's scope
     * @param key    the call
     * @param window how long after its last failure a call is forgotten
     * @return the count, 0 if the call is unknown or forgotten
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    int failures(String scope, CallKey key, Duration window);

    /**
     * Counts one more consecutive failure, atomically, never beyond {@code maxFailures}; a streak older than
     * the window starts again at 1.
     *
     * @param scope       the budget's scope
     * @param key         the call that failed
     * @param window      how long after its last failure a call is forgotten
     * @param maxFailures the count's ceiling
     * @return the new count
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    int recordFailure(String scope, CallKey key, Duration window, int maxFailures);

    /**
     * Forgets a call's failures because it succeeded.
     *
     * @param scope the budget's scope
     * @param key   the call that succeeded
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    void recordSuccess(String scope, CallKey key);
}
