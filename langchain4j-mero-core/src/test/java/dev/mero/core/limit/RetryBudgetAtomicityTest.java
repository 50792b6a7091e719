package dev.mero.core.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.OperationFailedException;
import dev.mero.core.RetryBudgetExceededException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Checking and counting are one step: N concurrent failures of one call run exactly the budget. */
class RetryBudgetAtomicityTest {

    private final CallKey key = CallKey.of("read_file", "/ws/missing.txt");

    @Test
    void thirtyTwoConcurrentFailingCallsRunExactlyMaxFailuresTimes() throws Exception {
        RetryBudget budget = RetryBudget.builder().maxFailures(3).build();
        int callers = 32;
        CountDownLatch decided = new CountDownLatch(callers);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> {
                    try {
                        budget.run(key, () -> {
                            ran.incrementAndGet();
                            decided.countDown();
                            await(release);
                            throw new OperationFailedException("missing");
                        });
                    } catch (RetryBudgetExceededException e) {
                        refused.incrementAndGet();
                        decided.countDown();
                    } catch (OperationFailedException expected) {
                        // one of the runs the budget allowed
                    }
                }));
            }
            assertThat(decided.await(60, TimeUnit.SECONDS)).isTrue();
            release.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(ran).hasValue(3);
        assertThat(refused).hasValue(callers - 3);
        assertThat(budget.failures(key)).isEqualTo(3);
        assertThatThrownBy(() -> budget.begin(key)).isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("already failed 3 time(s)");
    }

    @Test
    void aRunningAttemptHoldsOneOfTheRemainingFailures() {
        RetryBudget budget = RetryBudget.builder().maxFailures(2).build();
        RetryBudget.Attempt first = budget.begin(key);
        RetryBudget.Attempt second = budget.begin(key);

        assertThatThrownBy(() -> budget.begin(key)).isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("2 identical call(s) still running");

        first.release();
        RetryBudget.Attempt third = budget.begin(key);
        second.succeeded();
        third.failed();
        third.failed(); // only the first end counts
        assertThat(budget.failures(key)).isEqualTo(1);
        budget.begin(key).failed();
        assertThatThrownBy(() -> budget.begin(key)).isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("already failed 2 time(s)");
    }

    @Test
    void aSuccessWhileOthersRunResetsOnlyTheFailures() {
        RetryBudget budget = RetryBudget.builder().maxFailures(2).build();
        budget.begin(key).failed();
        RetryBudget.Attempt running = budget.begin(key);

        budget.recordSuccess(key);

        assertThat(budget.failures(key)).isZero();
        RetryBudget.Attempt another = budget.begin(key);
        assertThatThrownBy(() -> budget.begin(key)).isInstanceOf(RetryBudgetExceededException.class);
        running.release();
        another.release();
        assertThat(budget.trackedCalls()).isZero();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
