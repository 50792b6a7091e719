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

    /**
     * Checks a call's budget and, in the same atomic step across every instance, reserves one of its remaining
     * failures for an attempt that is about to run: while it runs (or until its lease passes, should its
     * instance die), it counts as a failure for every identical call on every instance. The default reserves
     * nothing and returns {@code null}: the budget then reserves attempts in its own JVM only.
     *
     * @param scope       the budget's scope
     * @param key         the call
     * @param window      how long after its last failure a call is forgotten
     * @param maxFailures the budget
     * @param lease       how long a reservation holds if its attempt never ends
     * @return the reservation's id, to end it with {@link #endAttempt}; {@code null} if this store does not
     *         reserve attempts
     * @throws dev.mero.core.RetryBudgetExceededException    if the call has used up its budget, or attempts
     *                                                       running anywhere hold its remaining failures
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    default String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
        return null;
    }

    /**
     * Ends an attempt reserved by {@link #beginAttempt}, in one atomic step: frees its reservation and counts
     * its outcome (a failure, or a success that forgets the call's failures). The default counts the outcome
     * with {@link #recordFailure} or {@link #recordSuccess}.
     *
     * @param scope       the budget's scope
     * @param key         the call
     * @param attempt     the reservation's id
     * @param outcome     how the attempt ended
     * @param window      how long after its last failure a call is forgotten
     * @param maxFailures the count's ceiling
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    default void endAttempt(String scope, CallKey key, String attempt, AttemptOutcome outcome, Duration window,
                            int maxFailures) {
        if (outcome == AttemptOutcome.FAILED) {
            recordFailure(scope, key, window, maxFailures);
        } else if (outcome == AttemptOutcome.SUCCEEDED) {
            recordSuccess(scope, key);
        }
    }

    /**
     * Takes one permit of a shared rate limit and, only if it was taken, begins an attempt as
     * {@link #beginAttempt} does: the limit and the budget of one guarded decision, which a store that also
     * holds the bucket can do atomically in one round trip. A refused permit begins nothing; a refused budget
     * leaves the permit taken, exactly as {@link RateLimitStore#tryTake} followed by {@link #beginAttempt} would.
     * The default does just that, in two calls.
     *
     * @param limits      the store that holds the bucket
     * @param bucket      the bucket's name
     * @param limit       the limit the bucket enforces
     * @param scope       the budget's scope
     * @param key         the call
     * @param window      how long after its last failure a call is forgotten
     * @param maxFailures the budget
     * @param lease       how long a reservation holds if its attempt never ends
     * @return the permit's wait and, if it was taken, the reservation
     * @throws dev.mero.core.RetryBudgetExceededException    if the permit was taken but the budget refused the call
     * @throws dev.mero.core.PolicyStoreUnavailableException if a store did not answer in time
     */
    default LimitedAttempt takeAndBeginAttempt(RateLimitStore limits, String bucket, RateLimit limit, String scope,
                                               CallKey key, Duration window, int maxFailures, Duration lease) {
        long waitNanos = limits.tryTake(bucket, limit);
        return new LimitedAttempt(waitNanos, waitNanos > 0 ? null : beginAttempt(scope, key, window, maxFailures, lease));
    }

    /**
     * What {@link #takeAndBeginAttempt} did.
     *
     * @param waitNanos 0 if the permit was taken, otherwise the nanoseconds until one is available (nothing was
     *                  begun)
     * @param attempt   the reservation's id, {@code null} if the permit was refused or this store does not
     *                  reserve attempts
     */
    record LimitedAttempt(long waitNanos, String attempt) {
    }

    /** How an attempt ended. */
    enum AttemptOutcome {
        /** The call succeeded: its failures are forgotten. */
        SUCCEEDED,
        /** The call failed: one more consecutive failure. */
        FAILED,
        /** The call did not run, or its outcome is not known: nothing is counted. */
        RELEASED
    }
}
