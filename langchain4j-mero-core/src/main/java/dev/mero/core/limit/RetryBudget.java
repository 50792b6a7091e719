package dev.mero.core.limit;

import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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
 * <p>A success resets the call's count; a call that has not failed for {@code window} is forgotten, so the
 * refusal lifts after that long. At most {@code maxTrackedCalls} calls are remembered, the least recently
 * used being forgotten first, so memory stays bounded whatever the model does. Use one budget per context.
 *
 * <p>With a {@link Builder#store(RetryBudgetStore, String) store}, the counts live there instead, shared by
 * every application instance using it; a store that cannot answer refuses the call with
 * {@link dev.mero.core.PolicyStoreUnavailableException}.
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

    private RetryBudget(Builder builder) {
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
            streaks.put(key, new Streak(streak == null ? 1 : Math.min(streak.failures + 1, maxFailures), now));
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
            streaks.remove(key);
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
        check(key);
        T result;
        try {
            result = call.get();
        } catch (RateLimitedException | PolicyStoreUnavailableException notRun) {
            throw notRun;
        } catch (RuntimeException | Error failure) {
            recordFailure(key);
            throw failure;
        }
        recordSuccess(key);
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

    /** Returns the key's live streak, dropping it if it is older than the window; call with the lock held. */
    private Streak current(CallKey key, long now) {
        Streak streak = streaks.get(key);
        if (streak != null && now - streak.lastFailure >= windowNanos) {
            streaks.remove(key);
            return null;
        }
        return streak;
    }

    private record Streak(int failures, long lastFailure) {
    }

    /** Builds a {@link RetryBudget}. */
    public static final class Builder {

        private int maxFailures = 3;
        private Duration window = Duration.ofMinutes(10);
        private int maxTrackedCalls = 1024;
        private Ticker ticker = Ticker.system();
        private RetryBudgetStore store;
        private String storeScope;

        private Builder() {
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
            Objects.requireNonNull(window, "window");
            if (window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("window must be between 1 ms and 1 day, was " + window);
            }
            this.window = window;
            return this;
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
