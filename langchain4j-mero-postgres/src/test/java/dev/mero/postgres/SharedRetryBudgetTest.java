package dev.mero.postgres;

import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.limit.RetryBudgetStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The retry budget shared by two application instances (two pools, two stores, one database): attempts are
 * reserved in the database, so 2 instances x 3 concurrent identical failing calls run at most
 * {@code max_failures}, and a reservation whose instance died is freed once its lease has passed.
 */
class SharedRetryBudgetTest {

    private static final CallKey KEY = CallKey.ofJson("append_file", "{\"path\": \"/ws/x\"}");

    private TwoInstances instances;
    private PostgresPolicyStore storeA;
    private PostgresPolicyStore storeB;

    @BeforeEach
    void twoInstancesOnOneDatabase() throws Exception {
        instances = TwoInstances.start(builder -> builder.timeout(Duration.ofSeconds(10)),
                builder -> builder.timeout(Duration.ofSeconds(10)), 6);
        storeA = instances.a;
        storeB = instances.b;
    }

    @AfterEach
    void closeAll() throws Exception {
        instances.close();
    }

    private static RetryBudget budget(RetryBudgetStore store) {
        return RetryBudget.builder().maxFailures(3).store(store, "shared").build();
    }

    @Test
    void twoInstancesTimesThreeConcurrentFailingCallsRunAtMostMaxFailures() throws Exception {
        List<RetryBudget> instances = List.of(budget(storeA.retryBudgets()), budget(storeB.retryBudgets()));
        AtomicInteger runs = new AtomicInteger();
        // each call that runs waits until three run at once (or 60 s): without shared reservations, all six
        // would begin before any failure is counted, and all six would run
        CountDownLatch threeRunning = new CountDownLatch(3);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (RetryBudget budget : instances) {
                for (int i = 0; i < 3; i++) {
                    calls.add(threads.submit(() -> {
                        start.await();
                        try {
                            return budget.run(KEY, () -> {
                                runs.incrementAndGet();
                                threeRunning.countDown();
                                try {
                                    threeRunning.await(60, TimeUnit.SECONDS);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                                throw new IllegalStateException("the call failed");
                            });
                        } catch (RetryBudgetExceededException refused) {
                            return "refused";
                        } catch (IllegalStateException failed) {
                            return "failed";
                        }
                    }));
                }
            }
            start.countDown();
            List<String> outcomes = new ArrayList<>();
            for (Future<String> call : calls) {
                outcomes.add(call.get(120, TimeUnit.SECONDS));
            }

            assertThat(runs).hasValue(3);
            assertThat(outcomes).filteredOn("failed"::equals).hasSize(3);
            assertThat(outcomes).filteredOn("refused"::equals).hasSize(3);
        } finally {
            threads.shutdownNow();
        }
        // the budget is used up on both instances: the next identical call runs nowhere
        for (RetryBudget budget : instances) {
            assertThat(budget.failures(KEY)).isEqualTo(3);
            assertThatThrownBy(() -> budget.run(KEY, () -> runs.incrementAndGet()))
                    .isInstanceOf(RetryBudgetExceededException.class);
        }
        assertThat(runs).hasValue(3);
    }

    @Test
    void aSuccessOnOneInstanceFreesTheBudgetOnTheOther() {
        RetryBudget a = budget(storeA.retryBudgets());
        RetryBudget b = budget(storeB.retryBudgets());
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> a.run(KEY, () -> {
                throw new IllegalStateException("failed");
            })).isInstanceOf(IllegalStateException.class);
        }
        RetryBudget.Attempt held = a.begin(KEY);
        // two failures and one attempt running on A hold the whole budget, on B too
        assertThatThrownBy(() -> b.begin(KEY)).isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("running");
        held.succeeded();
        assertThat(b.failures(KEY)).isZero();
        assertThat(b.run(KEY, () -> "ran")).isEqualTo("ran");
        // a released attempt counts nothing
        a.begin(KEY).release();
        assertThat(a.failures(KEY)).isZero();
    }

    @Test
    void aReservationWhoseInstanceDiedIsFreedAfterItsLease() throws Exception {
        RetryBudget dying = RetryBudget.builder().maxFailures(1).attemptLease(Duration.ofMillis(200))
                .store(storeA.retryBudgets(), "shared").build();
        RetryBudget other = RetryBudget.builder().maxFailures(1).store(storeB.retryBudgets(), "shared").build();
        dying.begin(KEY); // never ended: its instance is gone
        assertThatThrownBy(() -> other.begin(KEY)).isInstanceOf(RetryBudgetExceededException.class);

        RetryBudget.Attempt after = SharedStoresTest.awaitValue(() -> {
            try {
                return other.begin(KEY);
            } catch (RetryBudgetExceededException stillHeld) {
                return null;
            }
        });
        after.failed();
        assertThat(other.failures(KEY)).isEqualTo(1);
    }
}
