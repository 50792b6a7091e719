package dev.mero.core.limit;

import dev.mero.core.MeroToolsException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryBudgetTest {

    private static final String FINAL_MESSAGE = "Call 'read_file' with these exact arguments already failed 3 time(s) "
            + "in a row and was not run again. Stop retrying it: change the arguments, take a different approach, "
            + "or ask the user for help.";

    private final FakeTicker ticker = new FakeTicker();
    private final RetryBudget budget = RetryBudget.builder().ticker(ticker).build();
    private final CallKey readMissing = CallKey.of("read_file", "{\"path\":\"/ws/missing.txt\"}");

    @Test
    void allowsMaxFailuresThenRefusesTheNextIdenticalCallWithAFinalError() {
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> budget.run(readMissing, () -> failingRead(runs)))
                    .isInstanceOf(OperationFailedException.class);
        }

        assertThatThrownBy(() -> budget.run(readMissing, () -> failingRead(runs)))
                .isInstanceOf(RetryBudgetExceededException.class)
                .isInstanceOf(MeroToolsException.class)
                .hasMessage(FINAL_MESSAGE)
                .satisfies(thrown -> {
                    MeroToolsException exhausted = (MeroToolsException) thrown;
                    assertThat(exhausted.errorCode()).isEqualTo("retry_exhausted");
                    assertThat(exhausted.isDenial()).isTrue();
                });
        assertThat(runs).as("the refused call must not run").hasValue(3);
        assertThat(budget.failures(readMissing)).isEqualTo(3);
    }

    @Test
    void theMaximumIsConfigurable() {
        RetryBudget strict = RetryBudget.builder().maxFailures(1).ticker(ticker).build();

        assertThatCode(() -> strict.check(readMissing)).doesNotThrowAnyException();
        strict.recordFailure(readMissing);

        assertThatThrownBy(() -> strict.check(readMissing))
                .isInstanceOf(RetryBudgetExceededException.class)
                .hasMessage("Call 'read_file' with these exact arguments already failed 1 time(s) in a row and was "
                        + "not run again. Stop retrying it: change the arguments, take a different approach, or ask "
                        + "the user for help.");
    }

    @Test
    void aSuccessResetsTheCount() {
        budget.recordFailure(readMissing);
        budget.recordFailure(readMissing);
        assertThat(budget.run(readMissing, () -> "content")).isEqualTo("content");

        assertThat(budget.failures(readMissing)).isZero();
        budget.recordFailure(readMissing);
        budget.recordFailure(readMissing);
        assertThatCode(() -> budget.check(readMissing)).doesNotThrowAnyException();
    }

    @Test
    void differentArgumentsOrOperationsAreDifferentCalls() {
        exhaust(readMissing);
        CallKey otherPath = CallKey.of("read_file", "{\"path\":\"/ws/other.txt\"}");
        CallKey otherTool = CallKey.of("stat_file", "{\"path\":\"/ws/missing.txt\"}");

        assertThatThrownBy(() -> budget.check(readMissing)).isInstanceOf(RetryBudgetExceededException.class);
        assertThatCode(() -> budget.check(otherPath)).doesNotThrowAnyException();
        assertThatCode(() -> budget.check(otherTool)).doesNotThrowAnyException();
        assertThat(budget.failures(otherPath)).isZero();
    }

    @Test
    void aRateLimitedCallDoesNotCountAsAFailure() {
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> budget.run(readMissing, () -> {
                throw RateLimitedException.exceeded("w", "1 call per second", 1);
            })).isInstanceOf(RateLimitedException.class);
        }

        assertThat(budget.failures(readMissing)).isZero();
    }

    @Test
    void anyOtherExceptionCountsAndIsRethrownUnchanged() {
        IllegalStateException bug = new IllegalStateException("bug");

        assertThatThrownBy(() -> budget.run(readMissing, () -> {
            throw bug;
        })).isSameAs(bug);
        assertThat(budget.failures(readMissing)).isEqualTo(1);
    }

    @Test
    void failuresAreForgottenAWindowAfterTheLastOne() {
        RetryBudget windowed = RetryBudget.builder().window(Duration.ofMinutes(1)).ticker(ticker).build();
        windowed.recordFailure(readMissing);
        ticker.advance(Duration.ofSeconds(50));
        windowed.recordFailure(readMissing);
        windowed.recordFailure(readMissing);
        assertThatThrownBy(() -> windowed.check(readMissing)).isInstanceOf(RetryBudgetExceededException.class);

        ticker.advance(Duration.ofSeconds(59));
        assertThatThrownBy(() -> windowed.check(readMissing)).isInstanceOf(RetryBudgetExceededException.class);
        ticker.advance(Duration.ofSeconds(1));
        assertThatCode(() -> windowed.check(readMissing)).doesNotThrowAnyException();
        assertThat(windowed.failures(readMissing)).isZero();
        assertThat(windowed.trackedCalls()).isZero();
    }

    @Test
    void remembersAtMostMaxTrackedCallsForgettingTheLeastRecentlyUsed() {
        RetryBudget bounded = RetryBudget.builder().maxTrackedCalls(3).ticker(ticker).build();
        CallKey first = CallKey.of("op", "1");
        for (int i = 1; i <= 3; i++) {
            bounded.recordFailure(CallKey.of("op", String.valueOf(i)));
        }
        assertThat(bounded.failures(first)).isEqualTo(1); // touches "1": "2" is now the eldest

        bounded.recordFailure(CallKey.of("op", "4"));

        assertThat(bounded.trackedCalls()).isEqualTo(3);
        assertThat(bounded.failures(first)).isEqualTo(1);
        assertThat(bounded.failures(CallKey.of("op", "2"))).isZero();
        for (int i = 5; i < 1000; i++) {
            bounded.recordFailure(CallKey.of("op", String.valueOf(i)));
        }
        assertThat(bounded.trackedCalls()).isEqualTo(3);
    }

    @Test
    void concurrentRecordsStayConsistentAndBounded() throws Exception {
        RetryBudget bounded = RetryBudget.builder().maxTrackedCalls(50).ticker(ticker).build();
        CallKey shared = CallKey.of("op", "shared");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < 500; i++) {
                        bounded.recordFailure(CallKey.of("op", thread + "-" + i));
                        bounded.recordFailure(shared);
                        bounded.failures(shared); // keeps the shared key recently used
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(bounded.trackedCalls()).isEqualTo(50);
        assertThat(bounded.failures(shared)).isEqualTo(3);
        assertThatThrownBy(() -> bounded.check(shared)).isInstanceOf(RetryBudgetExceededException.class);
    }

    @Test
    void theBuilderRejectsOutOfRangeValues() {
        assertThatThrownBy(() -> RetryBudget.builder().maxFailures(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxFailures must be between 1 and 100, was 0");
        assertThatThrownBy(() -> RetryBudget.builder().window(Duration.ZERO))
                .hasMessage("window must be between 1 ms and 1 day, was PT0S");
        assertThatThrownBy(() -> RetryBudget.builder().maxTrackedCalls(0))
                .hasMessage("maxTrackedCalls must be between 1 and 1000000, was 0");
        assertThat(RetryBudget.builder().build())
                .hasToString("RetryBudget{maxFailures=3, window=PT10M, maxTrackedCalls=1024}");
    }

    private void exhaust(CallKey key) {
        for (int i = 0; i < 3; i++) {
            budget.recordFailure(key);
        }
    }

    private static String failingRead(AtomicInteger runs) {
        runs.incrementAndGet();
        throw new OperationFailedException("Error: '/ws/missing.txt' is not a file or does not exist.");
    }
}
