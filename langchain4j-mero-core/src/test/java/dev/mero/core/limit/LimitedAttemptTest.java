package dev.mero.core.limit;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A guarded decision's rate-limit permit and retry-budget reservation, taken together where one store can. */
class LimitedAttemptTest {

    private final List<String> calls = new ArrayList<>();
    private long nextWait;

    /** Records every call; permits wait {@link #nextWait}. */
    private final RateLimitStore limits = new RateLimitStore() {
        @Override
        public long tryTake(String bucket, RateLimit limit) {
            calls.add("take " + bucket + " " + limit.describe());
            return nextWait;
        }

        @Override
        public int availablePermits(String bucket, RateLimit limit) {
            return 0;
        }
    };

    /** A store that reserves attempts (as the database does), with the default combined call. */
    private class Reserving implements RetryBudgetStore {
        private int failures;

        @Override
        public int failures(String scope, CallKey key, Duration window) {
            return failures;
        }

        @Override
        public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
            return ++failures;
        }

        @Override
        public void recordSuccess(String scope, CallKey key) {
            failures = 0;
        }

        @Override
        public String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
            calls.add("begin " + scope + " " + key.operation());
            if (failures >= maxFailures) {
                throw RetryBudgetExceededException.exhausted(key.operation(), failures);
            }
            return "attempt-" + calls.size();
        }

        @Override
        public void endAttempt(String scope, CallKey key, String attempt, AttemptOutcome outcome, Duration window,
                               int maxFailures) {
            calls.add("end " + attempt + " " + outcome);
            if (outcome == AttemptOutcome.FAILED) {
                failures++;
            }
        }
    }

    /** A store that takes the permit and reserves in one call of its own when the bucket is in {@link #limits}. */
    private final class Combining extends Reserving {
        @Override
        public LimitedAttempt takeAndBeginAttempt(RateLimitStore store, String bucket, RateLimit limit, String scope,
                                                  CallKey key, Duration window, int maxFailures, Duration lease) {
            calls.add("decide " + (store == limits) + " " + bucket + " " + limit.describe() + " " + scope + " "
                    + key.operation() + " " + maxFailures + " " + lease.toMinutes());
            return new LimitedAttempt(nextWait, nextWait > 0 ? null : "one-trip");
        }
    }

    @Test
    void theDefaultTakesThePermitThenBeginsAndARefusedPermitBeginsNothing() {
        RetryBudget budget = RetryBudget.builder().maxFailures(2).store(new Reserving(), "s").build();
        RateLimiter limiter = RateLimiter.shared(RateLimit.perMinute(60), limits, "b");
        CallKey key = CallKey.of("read_file", "/ws/a");

        budget.begin(key, limiter, "worker").succeeded();
        nextWait = 2_500_000_000L;
        assertThatThrownBy(() -> budget.begin(key, limiter, "worker"))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                    assertThat(e.retryAfterSeconds()).isEqualTo(3);
                    assertThat(e.getMessage()).contains("worker");
                });

        assertThat(calls).containsExactly("take b 60 calls per minute", "begin s read_file",
                "end attempt-2 SUCCEEDED", "take b 60 calls per minute");
    }

    @Test
    void aStoreThatHoldsTheBucketDecidesInOneCall() {
        RetryBudget budget = RetryBudget.builder().maxFailures(3).attemptLease(Duration.ofMinutes(4))
                .store(new Combining(), "s").build();
        RateLimiter limiter = RateLimiter.shared(RateLimit.perMinute(60), limits, "b");
        CallKey key = CallKey.of("read_file", "/ws/a");

        budget.begin(key, limiter, "worker").failed();
        nextWait = 1;
        assertThatThrownBy(() -> budget.begin(key, limiter, "worker"))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> assertThat(e.retryAfterSeconds()).isEqualTo(1));

        assertThat(calls).containsExactly("decide true b 60 calls per minute s read_file 3 4",
                "end one-trip FAILED", "decide true b 60 calls per minute s read_file 3 4");
    }

    @Test
    void aLimiterInMemoryOrABudgetInMemoryTakesThePermitFirst() {
        CallKey key = CallKey.of("read_file", "/ws/a");
        RateLimiter oneCall = RateLimiter.of(RateLimit.perHour(1));
        RetryBudget stored = RetryBudget.builder().store(new Combining(), "s").build();
        stored.begin(key, oneCall, "worker").release();
        assertThatThrownBy(() -> stored.begin(key, oneCall, "worker")).isInstanceOf(RateLimitedException.class);
        assertThat(calls).as("an in-memory limiter is not the store's to take").containsExactly("begin s read_file",
                "end attempt-1 RELEASED");

        calls.clear();
        RetryBudget local = RetryBudget.builder().maxFailures(1).build();
        RetryBudget.Attempt running = local.begin(key, RateLimiter.shared(RateLimit.perMinute(60), limits, "b"),
                "worker");
        assertThat(calls).containsExactly("take b 60 calls per minute");
        assertThatThrownBy(() -> local.begin(key, null, "worker")).as("the attempt is reserved in this JVM")
                .isInstanceOf(RetryBudgetExceededException.class);
        running.release();
        local.begin(key, null, "worker").release();
    }

    @Test
    void aStoreThatReservesNothingLeavesTheAttemptToThisJvm() {
        RetryBudgetStore counting = new RetryBudgetStore() {
            @Override
            public int failures(String scope, CallKey key, Duration window) {
                calls.add("failures");
                return 0;
            }

            @Override
            public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
                return 1;
            }

            @Override
            public void recordSuccess(String scope, CallKey key) {
                calls.add("success");
            }
        };
        RetryBudget budget = RetryBudget.builder().maxFailures(1).store(counting, "s").build();
        RateLimiter limiter = RateLimiter.shared(RateLimit.perMinute(60), limits, "b");
        CallKey key = CallKey.of("read_file", "/ws/a");

        RetryBudget.Attempt running = budget.begin(key, limiter, "worker");
        assertThatThrownBy(() -> budget.begin(key, limiter, "worker"))
                .isInstanceOf(RetryBudgetExceededException.class);
        running.succeeded();

        assertThat(calls).containsExactly("take b 60 calls per minute", "failures", "take b 60 calls per minute",
                "failures", "success");
    }

    @Test
    void aGuardedDecisionTakesItsPermitWithTheBudgetAndARefusalOverTheLimitSeesTheLimit(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("a.txt"), "a");
        SecurityContext context = SecurityContext.builder().name("worker")
                .path(PathEntry.of(dir.toString(), "ws", Permission.READ))
                .rateLimit(RateLimit.perMinute(60)).rateLimitStore(limits)
                .retryBudget(RetryBudget.builder().store(new Combining(), "s").build()).build();

        context.guard(Operation.FILE_READ, "/ws/a.txt");
        assertThat(calls).containsExactly("decide true worker 60 calls per minute s read_file 3 10",
                "end one-trip RELEASED");

        calls.clear();
        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt")).as("refused, within the limit")
                .isNotInstanceOf(RateLimitedException.class);
        assertThat(calls).containsExactly("decide true worker 60 calls per minute s write_file 3 10",
                "end one-trip FAILED");

        calls.clear();
        nextWait = 1_000_000_000L;
        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt")).as("refused, over the limit")
                .isInstanceOf(RateLimitedException.class);
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/a.txt"))
                .isInstanceOf(RateLimitedException.class);
        assertThat(calls).hasSize(2).allMatch(call -> call.startsWith("decide "));
    }
}
