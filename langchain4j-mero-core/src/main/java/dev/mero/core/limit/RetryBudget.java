package dev.mero.core.limit;

import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Stops a model from retrying the same failing call forever. It counts consecutive failures per
 * {@link CallKey} (same operation, same arguments); once a call has failed {@code maxFailures} times in a
 * row, the next identical call is not run and gets a final {@link RetryBudgetExceededException} telling the
 * model to change approach.
 *
 * <pre>{@code
 * RetryBudget budget = RetryBudget.builder().maxFailures(3).build();
 * CallKey key = CallKey.ofJson("read_file", requestArgumentsJson);
 * String result = budget.run(key, () -> readFile(...));
 * }</pre>
 *
 * <p>Checking and counting are one atomic step: {@link #begin(CallKey)} refuses the call or reserves one of its
 * remaining failures for it until the attempt ends, so N concurrent identical calls that all fail run exactly
 * {@code maxFailures} times, never more. A success resets the call's count; a call that has not failed for {@code window} is forgotten, so the
 * refusal lifts after that long. At most {@code maxTrackedCalls} calls are remembered, the least recently
 * used being forgotten first, so memory stays bounded whatever the model does. Use one budget per context.
 *
 * <p>With a {@link Builder#store(RetryBudgetStore, String) store}, the counts live there instead, shared by
 * every application instance using it; a store that cannot answer refuses the call with
 * {@link dev.mero.core.PolicyStoreUnavailableException}. A store that reserves attempts
 * ({@link RetryBudgetStore#beginAttempt}) also holds the running attempts of every instance, so the
 * budget holds across instances too; with any other store, running attempts are reserved in this JVM.
 *
 * <p>Thread-safe.
 */
public final class RetryBudget {

    private final int maxFailures;
    private final long windowNanos;
    private final Duration window;
    private final int maxTrackedCalls;
    private final Ticker ticker;
    private final Map<CallKey, Streak> streaks;
    private final RetryBudgetStore store;
    private final String storeScope;
    private final Duration attemptLease;

    private RetryBudget(Builder builder) {
        this.attemptLease = builder.attemptLease;
        this.store = builder.store;
        this.storeScope = builder.storeScope;
        this.maxFailures = builder.maxFailures;
        this.window = builder.window;
        this.windowNanos = builder.window.toNanos();
        this.maxTrackedCalls = builder.maxTrackedCalls;
        this.ticker = builder.ticker;
        this.streaks = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<CallKey, Streak> eldest) {
                return size() > maxTrackedCalls;
            }
        };
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Refuses a call that has used up its budget; call it before running the call.
     *
     * @param key the call
     * @throws RetryBudgetExceededException if the identical call already failed {@code maxFailures} times in a
     *                                      row within the window
     */
    public void check(CallKey key) {
        int failures = failures(key);
        if (failures >= maxFailures) {
            throw RetryBudgetExceededException.exhausted(key.operation(), failures);
        }
    }

    /**
     * Checks the call's budget and, in the same atomic step, reserves one of its remaining failures for this
     * attempt: while it runs, it counts as a failure for every other identical call. End the attempt exactly
     * once with {@link Attempt#succeeded()}, {@link Attempt#failed()} or {@link Attempt#release()}.
     *
     * @param key the call
     * @return the running attempt
     * @throws RetryBudgetExceededException if the call already failed {@code maxFailures} times in a row within
     *                                      the window, or identical calls still running hold its remaining
     *                                      failures
     */
    public Attempt begin(CallKey key) {
        Objects.requireNonNull(key, "key");
        if (store != null) {
            // a store that reserves attempts counts the calls running on every instance, atomically
            String reserved = store.beginAttempt(storeScope, key, window, maxFailures, attemptLease);
            if (reserved != null) {
                return new Attempt(key, reserved);
            }
        }
        return beginHere(key);
    }

    /**
     * Takes a permit of the limiter, then {@linkplain #begin(CallKey) begins} the call's attempt: the rate limit
     * and the retry budget of one guarded decision, in one atomic step when the limiter is shared and this
     * budget's store can take its permit too ({@link RetryBudgetStore#takeAndBeginAttempt}: one round trip to a
     * database that holds both). A refused permit begins nothing.
     *
     * @param key         the call
     * @param limiter     the limiter to take a permit from, {@code null} for none
     * @param contextName the context's name, for the rate limit's message
     * @return the running attempt
     * @throws RateLimitedException         if the limiter has no permit
     * @throws RetryBudgetExceededException as {@link #begin(CallKey)}
     */
    public Attempt begin(CallKey key, RateLimiter limiter, String contextName) {
        Objects.requireNonNull(key, "key");
        if (limiter == null) {
            return begin(key);
        }
        if (store == null || limiter.store() == null) {
            limiter.acquire(contextName);
            return begin(key);
        }
        RetryBudgetStore.LimitedAttempt taken = store.takeAndBeginAttempt(limiter.store(), limiter.bucket(),
                limiter.limit(), storeScope, key, window, maxFailures, attemptLease);
        if (taken.waitNanos() > 0) {
            throw limiter.refusal(contextName, taken.waitNanos());
        }
        return taken.attempt() != null ? new Attempt(key, taken.attempt()) : beginHere(key);
    }

    /** Reserves the attempt in this JVM: the store, if any, holds the failures but no running attempts. */
    private Attempt beginHere(CallKey key) {
        long now = ticker.nanos();
        // a shared store holds the failures of every instance; the calls still running are this instance's own
        int storedFailures = store == null ? 0 : store.failures(storeScope, key, window);
        synchronized (streaks) {
            Streak streak = current(key, now);
            int failures = store != null ? storedFailures : streak == null ? 0 : streak.failures;
            int running = streak == null ? 0 : streak.running;
            if (failures >= maxFailures) {
                throw RetryBudgetExceededException.exhausted(key.operation(), failures);
            }
            if (failures + running >= maxFailures) {
                throw RetryBudgetExceededException.held(key.operation(), failures, running);
            }
            streaks.put(key, new Streak(store != null ? 0 : failures, running + 1,
                    streak == null ? now : streak.lastFailure));
        }
        return new Attempt(key, null);
    }

    /**
     * Counts one more consecutive failure of a call.
     *
     * @param key the call that failed
     */
    public void recordFailure(CallKey key) {
        Objects.requireNonNull(key, "key");
        if (store != null) {
            store.recordFailure(storeScope, key, window, maxFailures);
            return;
        }
        long now = ticker.nanos();
        synchronized (streaks) {
            Streak streak = current(key, now);
            // saturate: a refused call is not run, so the count only grows through explicit records
            streaks.put(key, new Streak(streak == null ? 1 : Math.min(streak.failures + 1, maxFailures),
                    streak == null ? 0 : streak.running, now));
        }
    }

    /**
     * Forgets a call's failures because it succeeded.
     *
     * @param key the call that succeeded
     */
    public void recordSuccess(CallKey key) {
        Objects.requireNonNull(key, "key");
        if (store != null) {
            store.recordSuccess(storeScope, key);
            return;
        }
        synchronized (streaks) {
            Streak streak = streaks.get(key);
            if (streak != null && streak.running > 0) {
                streaks.put(key, new Streak(0, streak.running, streak.lastFailure));
            } else {
                streaks.remove(key);
            }
        }
    }

    /**
     * How many times in a row a call has failed within the window.
     *
     * @param key the call
     * @return 0 to {@code maxFailures}
     */
    public int failures(CallKey key) {
        Objects.requireNonNull(key, "key");
        if (store != null) {
            return store.failures(storeScope, key, window);
        }
        long now = ticker.nanos();
        synchronized (streaks) {
            Streak streak = current(key, now);
            return streak == null ? 0 : streak.failures;
        }
    }

    /**
     * Runs a call under the budget: {@link #check(CallKey) checks} it, runs it, and records the outcome. Any
     * exception counts as a failure and is rethrown unchanged, except a {@link RateLimitedException} or a
     * {@link PolicyStoreUnavailableException}: the call did not run, and waiting is what the model was told
     * to do.
     *
     * @param key  the call
     * @param call the call itself
     * @param <T>  the result type
     * @return the call's result
     * @throws RetryBudgetExceededException if the call has used up its budget; the call is not run
     */
    public <T> T run(CallKey key, Supplier<T> call) {
        Objects.requireNonNull(call, "call");
        Attempt attempt = begin(key);
        T result;
        try {
            result = call.get();
        } catch (RateLimitedException | PolicyStoreUnavailableException notRun) {
            attempt.release();
            throw notRun;
        } catch (RuntimeException | Error failure) {
            attempt.failed();
            throw failure;
        }
        attempt.succeeded();
        return result;
    }

    /**
     * How many calls are remembered now in this JVM, at most {@code maxTrackedCalls}; always 0 for a budget
     * whose counts live in a {@link RetryBudgetStore}.
     *
     * @return the number of remembered calls
     */
    public int trackedCalls() {
        synchronized (streaks) {
            return streaks.size();
        }
    }

    @Override
    public String toString() {
        return "RetryBudget{maxFailures=" + maxFailures + ", window=" + window
                + ", maxTrackedCalls=" + maxTrackedCalls + "}";
    }

    /**
     * Returns the key's live streak, forgetting its failures if the last one is older than the window (attempts
     * still running stay counted); call with the lock held.
     */
    private Streak current(CallKey key, long now) {
        Streak streak = streaks.get(key);
        if (streak != null && streak.failures > 0 && now - streak.lastFailure >= windowNanos) {
            if (streak.running == 0) {
                streaks.remove(key);
                return null;
            }
            streak = new Streak(0, streak.running, now);
            streaks.put(key, streak);
        }
        return streak;
    }

    /** Ends one running attempt of a call: {@code outcome} -1 failed, 0 released, 1 succeeded. */
    private void end(Attempt attempt, int outcome) {
        CallKey key = attempt.key;
        if (attempt.reserved != null) {
            store.endAttempt(storeScope, key, attempt.reserved, outcome < 0 ? RetryBudgetStore.AttemptOutcome.FAILED
                    : outcome > 0 ? RetryBudgetStore.AttemptOutcome.SUCCEEDED : RetryBudgetStore.AttemptOutcome.RELEASED,
                    window, maxFailures);
            return;
        }
        endLocally(key, store != null ? 0 : outcome); // with a store, only the running calls are counted here
        if (store != null && outcome < 0) {
            store.recordFailure(storeScope, key, window, maxFailures);
        } else if (store != null && outcome > 0) {
            store.recordSuccess(storeScope, key);
        }
    }

    private void endLocally(CallKey key, int outcome) {
        long now = ticker.nanos();
        synchronized (streaks) {
            Streak streak = current(key, now);
            if (streak == null) {
                // forgotten meanwhile (the least recently used of too many calls): count a failure afresh
                if (outcome < 0) {
                    streaks.put(key, new Streak(1, 0, now));
                }
                return;
            }
            int running = Math.max(0, streak.running - 1);
            int failures = outcome > 0 ? 0 : outcome < 0 ? Math.min(streak.failures + 1, maxFailures) : streak.failures;
            if (failures == 0 && running == 0) {
                streaks.remove(key);
            } else {
                streaks.put(key, new Streak(failures, running, outcome < 0 ? now : streak.lastFailure));
            }
        }
    }

    /** Consecutive failures, attempts running now (each holding one of the remaining failures), last failure. */
    private record Streak(int failures, int running, long lastFailure) {
    }

    /**
     * One running attempt of a call, begun by {@link RetryBudget#begin(CallKey)}; it holds one of the call's
     * remaining failures until it ends. Only the first of its end calls counts. Thread-safe.
     */
    public final class Attempt {

        private final CallKey key;
        /** The store's reservation, or {@code null} when this JVM reserved the attempt. */
        private final String reserved;
        private final AtomicBoolean ended = new AtomicBoolean();

        private Attempt(CallKey key, String reserved) {
            this.key = key;
            this.reserved = reserved;
        }

        /**
         * The call this attempt belongs to.
         *
         * @return the key
         */
        public CallKey key() {
            return key;
        }

        /** The call succeeded: its consecutive failures are forgotten. */
        public void succeeded() {
            if (ended.compareAndSet(false, true)) {
                end(this, 1);
            }
        }

        /** The call failed: one more consecutive failure. */
        public void failed() {
            if (ended.compareAndSet(false, true)) {
                end(this, -1);
            }
        }

        /** The attempt ends without an outcome that counts (the call did not run, or its outcome is not known). */
        public void release() {
            if (ended.compareAndSet(false, true)) {
                end(this, 0);
            }
        }
    }

    /** Builds a {@link RetryBudget}. */
    public static final class Builder {

        private int maxFailures = 3;
        private Duration window = Duration.ofMinutes(10);
        private int maxTrackedCalls = 1024;
        private Ticker ticker = Ticker.system();
        private RetryBudgetStore store;
        private String storeScope;
        private Duration attemptLease = Duration.ofMinutes(10);

        private Builder() {
        }

        /**
         * How long a store's reservation of a running attempt holds if the attempt never ends, for example
         * because its instance died (default 10 minutes); make it longer than the longest call. Applies only
         * to a {@link #store(RetryBudgetStore, String) store} that reserves attempts.
         *
         * @param lease 1 millisecond to 1 day
         * @return this builder
         */
        public Builder attemptLease(Duration lease) {
            this.attemptLease = upToADay(lease, "attemptLease");
            return this;
        }

        /**
         * Keeps the failure counts in a store shared by several application instances instead of in memory
         * (the window and {@code maxFailures} still come from this builder; {@code maxTrackedCalls} and the
         * ticker then do not apply).
         *
         * @param store the store
         * @param scope the budget's name in the store, usually the context's name
         * @return this builder
         */
        public Builder store(RetryBudgetStore store, String scope) {
            if (scope == null || scope.isBlank()) {
                throw new IllegalArgumentException("A retry budget store needs a non-blank scope");
            }
            this.store = Objects.requireNonNull(store, "store");
            this.storeScope = scope;
            return this;
        }

        /**
         * How many times in a row an identical call may fail before the next one is refused (default 3).
         *
         * @param maxFailures 1 to 100
         * @return this builder
         */
        public Builder maxFailures(int maxFailures) {
            if (maxFailures < 1 || maxFailures > 100) {
                throw new IllegalArgumentException("maxFailures must be between 1 and 100, was " + maxFailures);
            }
            this.maxFailures = maxFailures;
            return this;
        }

        /**
         * How long after its last failure a call is forgotten (default 10 minutes).
         *
         * @param window 1 millisecond to 1 day
         * @return this builder
         */
        public Builder window(Duration window) {
            this.window = upToADay(window, "window");
            return this;
        }

        private static Duration upToADay(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException(name + " must be between 1 ms and 1 day, was " + value);
            }
            return value;
        }

        /**
         * How many distinct calls are remembered at most; the least recently used is forgotten first
         * (default 1024).
         *
         * @param maxTrackedCalls 1 to 1,000,000
         * @return this builder
         */
        public Builder maxTrackedCalls(int maxTrackedCalls) {
            if (maxTrackedCalls < 1 || maxTrackedCalls > 1_000_000) {
                throw new IllegalArgumentException("maxTrackedCalls must be between 1 and 1000000, was "
                        + maxTrackedCalls);
            }
            this.maxTrackedCalls = maxTrackedCalls;
            return this;
        }

        /**
         * The time source for the window (default the system's monotonic clock); tests pass one they move.
         *
         * @param ticker the time source
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Builds the budget.
         *
         * @return the budget
         */
        public RetryBudget build() {
            return new RetryBudget(this);
        }
    }
}
