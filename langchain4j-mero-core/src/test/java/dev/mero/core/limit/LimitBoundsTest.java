package dev.mero.core.limit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.replay.InMemoryReplayStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every documented bound of the limits is inclusive at both ends, and one step beyond it is refused. */
class LimitBoundsTest {

    private static final Duration NANO = Duration.ofNanos(1);

    @Test
    void retryBudgetBoundsAreInclusive() {
        assertThatCode(() -> RetryBudget.builder().maxFailures(1).maxFailures(100)
                .window(Duration.ofMillis(1)).window(Duration.ofDays(1))
                .maxTrackedCalls(1).maxTrackedCalls(1_000_000).build()).doesNotThrowAnyException();

        assertThatThrownBy(() -> RetryBudget.builder().maxFailures(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.builder().maxFailures(101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.builder().window(Duration.ofMillis(1).minus(NANO)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.builder().window(Duration.ofDays(1).plus(NANO)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.builder().maxTrackedCalls(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.builder().maxTrackedCalls(1_000_001))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rateLimitPeriodBoundsAreInclusive() {
        assertThatCode(() -> {
            RateLimit.of(1, Duration.ofMillis(1));
            RateLimit.of(RateLimit.MAX_PERMITS, Duration.ofHours(1));
        }).doesNotThrowAnyException();

        assertThatThrownBy(() -> RateLimit.of(1, Duration.ofMillis(1).minus(NANO)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimit.of(1, Duration.ofHours(1).plus(NANO)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimit.of(0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aReplayStoreHoldsAtLeastOneCall() {
        assertThatCode(() -> InMemoryReplayStore.create(1)).doesNotThrowAnyException();
        assertThatThrownBy(() -> InMemoryReplayStore.create(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
