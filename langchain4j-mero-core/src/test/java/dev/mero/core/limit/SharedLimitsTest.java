package dev.mero.core.limit;

import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Limiters and budgets whose state lives in a store: they ask it for every decision and fail closed. */
class SharedLimitsTest {

    @Test
    void aSharedLimiterTakesItsPermitsFromTheStore() {
        List<String> buckets = new ArrayList<>();
        long[] answers = {0, 1_500_000_000L};
        AtomicInteger call = new AtomicInteger();
        RateLimitStore store = new RateLimitStore() {
            @Override
            public long tryTake(String bucket, RateLimit limit) {
                buckets.add(bucket + " " + limit.describe());
                return answers[call.getAndIncrement()];
            }

            @Override
            public int availablePermits(String bucket, RateLimit limit) {
                return 7;
            }
        };
        RateLimiter limiter = RateLimiter.shared(RateLimit.perMinute(60), store, "worker_1");

        limiter.acquire("worker_1");
        assertThatThrownBy(() -> limiter.acquire("worker_1"))
                .isInstanceOfSatisfying(RateLimitedException.class,
                        e -> assertThat(e.retryAfterSeconds()).isEqualTo(2));
        assertThat(buckets).containsExactly("worker_1 60 calls per minute", "worker_1 60 calls per minute");
        assertThat(limiter.availablePermits()).isEqualTo(7);
        assertThat(limiter).hasToString("RateLimiter{60 calls per minute, shared bucket=worker_1}");
        assertThatThrownBy(() -> RateLimiter.shared(RateLimit.perMinute(1), store, " "))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStoreThatCannotAnswerRefusesTheCall() {
        RateLimitStore down = new RateLimitStore() {
            @Override
            public long tryTake(String bucket, RateLimit limit) {
                throw PolicyStoreUnavailableException.of("rate limit", null);
            }

            @Override
            public int availablePermits(String bucket, RateLimit limit) {
                throw PolicyStoreUnavailableException.of("rate limit", null);
            }
        };
        RateLimiter limiter = RateLimiter.shared(RateLimit.perMinute(60), down, "w");

        assertThatThrownBy(() -> limiter.acquire("w")).isInstanceOf(PolicyStoreUnavailableException.class);
        assertThatThrownBy(limiter::tryAcquire).isInstanceOf(PolicyStoreUnavailableException.class);
        assertThatThrownBy(limiter::availablePermits).isInstanceOf(PolicyStoreUnavailableException.class);
    }

    @Test
    void aBudgetWithAStoreCountsThereAndDoesNotCountCallsThatDidNotRun() {
        Map<String, Integer> counts = new HashMap<>();
        RetryBudgetStore store = new RetryBudgetStore() {
            @Override
            public int failures(String scope, CallKey key, Duration window) {
                return counts.getOrDefault(scope + key.digest(), 0);
            }

            @Override
            public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
                return counts.merge(scope + key.digest(), 1, (a, b) -> Math.min(a + b, maxFailures));
            }

            @Override
            public void recordSuccess(String scope, CallKey key) {
                counts.remove(scope + key.digest());
            }
        };
        RetryBudget budget = RetryBudget.builder().maxFailures(2).store(store, "worker_1").build();
        CallKey key = CallKey.of("read_file", "{}");

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> budget.run(key, () -> {
                throw new IllegalStateException("failed");
            })).isInstanceOf(IllegalStateException.class);
        }
        assertThat(counts).containsEntry("worker_1" + key.digest(), 2);
        assertThatThrownBy(() -> budget.check(key)).isInstanceOf(RetryBudgetExceededException.class);
        assertThat(budget.trackedCalls()).isZero();

        CallKey other = CallKey.of("write_file", "{}");
        assertThatThrownBy(() -> budget.run(other, () -> {
            throw PolicyStoreUnavailableException.of("rate limit", null);
        })).isInstanceOf(PolicyStoreUnavailableException.class);
        assertThat(budget.failures(other)).as("a call that did not run is no failure").isZero();

        budget.recordSuccess(key);
        assertThat(budget.run(key, () -> "ok")).isEqualTo("ok");
        assertThatThrownBy(() -> RetryBudget.builder().store(store, "")).isInstanceOf(IllegalArgumentException.class);
    }
}
