package dev.mero.core.limit;

import dev.mero.core.RetryBudgetExceededException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A retry budget whose store reserves attempts hands it every check, reservation and outcome. */
class RetryBudgetReservationTest {

    private static final CallKey KEY = CallKey.ofJson("write_file", "{\"path\": \"/ws/a\"}");

    /** A store with only the three counting methods: the defaults keep the budget's old behaviour. */
    private static class CountingStore implements RetryBudgetStore {
        final List<String> calls = new ArrayList<>();
        int failures;

        @Override
        public int failures(String scope, CallKey key, Duration window) {
            return failures;
        }

        @Override
        public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
            calls.add("recordFailure " + maxFailures);
            return ++failures;
        }

        @Override
        public void recordSuccess(String scope, CallKey key) {
            calls.add("recordSuccess");
            failures = 0;
        }
    }

    /** Counts like a shared store would, reserves attempts, and records what the budget asked of it. */
    private static final class ReservingStore extends CountingStore {
        int running;
        int next;

        @Override
        public String beginAttempt(String scope, CallKey key, Duration window, int maxFailures, Duration lease) {
            calls.add("begin " + scope + " " + window + " " + maxFailures + " " + lease);
            if (failures + running >= maxFailures) {
                throw RetryBudgetExceededException.held(key.operation(), failures, running);
            }
            running++;
            return "attempt-" + next++;
        }

        @Override
        public void endAttempt(String scope, CallKey key, String attempt, AttemptOutcome outcome, Duration window,
                               int maxFailures) {
            calls.add("end " + attempt + " " + outcome);
            running--;
            if (outcome == AttemptOutcome.FAILED) {
                failures++;
            } else if (outcome == AttemptOutcome.SUCCEEDED) {
                failures = 0;
            }
        }
    }

    private static RetryBudget budget(RetryBudgetStore store) {
        return RetryBudget.builder().maxFailures(2).window(Duration.ofMinutes(5))
                .attemptLease(Duration.ofSeconds(42)).store(store, "ctx").build();
    }

    @Test
    void everyAttemptIsReservedAndEndedInTheStore() {
        ReservingStore store = new ReservingStore();
        RetryBudget budget = budget(store);

        RetryBudget.Attempt first = budget.begin(KEY);
        RetryBudget.Attempt second = budget.begin(KEY);
        assertThatThrownBy(() -> budget.begin(KEY)).isInstanceOf(RetryBudgetExceededException.class);
        first.failed();
        first.succeeded(); // only the first end counts
        second.release();
        RetryBudget.Attempt third = budget.begin(KEY);
        third.succeeded();

        assertThat(store.calls).containsExactly("begin ctx PT5M 2 PT42S", "begin ctx PT5M 2 PT42S",
                "begin ctx PT5M 2 PT42S", "end attempt-0 FAILED", "end attempt-1 RELEASED",
                "begin ctx PT5M 2 PT42S", "end attempt-2 SUCCEEDED");
        assertThat(store.failures).isZero();
        assertThat(budget.trackedCalls()).isZero();
    }

    @Test
    void runReservesOnceAndCountsTheFailure() {
        ReservingStore store = new ReservingStore();
        RetryBudget budget = budget(store);
        assertThatThrownBy(() -> budget.run(KEY, () -> {
            throw new IllegalStateException("failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(store.calls).containsExactly("begin ctx PT5M 2 PT42S", "end attempt-0 FAILED");
        assertThat(store.running).isZero();
    }

    @Test
    void aStoreThatDoesNotReserveKeepsReservationsInThisJvm() {
        CountingStore store = new CountingStore();
        assertThat(store.beginAttempt("ctx", KEY, Duration.ofMinutes(1), 2, Duration.ofMinutes(1))).isNull();
        RetryBudget budget = budget(store);

        RetryBudget.Attempt first = budget.begin(KEY);
        RetryBudget.Attempt second = budget.begin(KEY);
        assertThatThrownBy(() -> budget.begin(KEY)).isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("2 identical call(s) still running");
        first.failed();
        second.succeeded();
        budget.begin(KEY).release();

        assertThat(store.calls).containsExactly("recordFailure 2", "recordSuccess");
    }

    @Test
    void theDefaultEndCountsTheOutcome() {
        CountingStore store = new CountingStore();
        store.endAttempt("ctx", KEY, "a", RetryBudgetStore.AttemptOutcome.FAILED, Duration.ofMinutes(1), 7);
        assertThat(store.calls).containsExactly("recordFailure 7");
        store.endAttempt("ctx", KEY, "a", RetryBudgetStore.AttemptOutcome.RELEASED, Duration.ofMinutes(1), 7);
        assertThat(store.calls).containsExactly("recordFailure 7");
        store.endAttempt("ctx", KEY, "a", RetryBudgetStore.AttemptOutcome.SUCCEEDED, Duration.ofMinutes(1), 7);
        assertThat(store.calls).containsExactly("recordFailure 7", "recordSuccess");
    }

    @Test
    void theLeaseIsBounded() {
        assertThatThrownBy(() -> RetryBudget.builder().attemptLease(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> RetryBudget.builder().attemptLease(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("attemptLease");
        assertThatThrownBy(() -> RetryBudget.builder().attemptLease(Duration.ofDays(1).plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RetryBudget.builder().attemptLease(Duration.ofMillis(1))).isNotNull();
        assertThat(RetryBudget.builder().attemptLease(Duration.ofDays(1))).isNotNull();
    }

    @Test
    void withoutALeaseTheDefaultIsTenMinutes() {
        ReservingStore store = new ReservingStore();
        RetryBudget.builder().maxFailures(2).window(Duration.ofMinutes(5)).store(store, "ctx").build().begin(KEY);
        assertThat(store.calls).containsExactly("begin ctx PT5M 2 PT10M");
    }
}
