package dev.mero.core.limit;

import dev.mero.core.MeroToolsException;
import dev.mero.core.RateLimitedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimiterTest {

    private final FakeTicker ticker = new FakeTicker();

    @Test
    void allowsABurstThenRefusesWithTheWaitInTheMessage() {
        RateLimiter limiter = RateLimiter.of(RateLimit.perMinute(3), ticker);

        for (int i = 0; i < 3; i++) {
            limiter.acquire("worker_1");
        }

        assertThatThrownBy(() -> limiter.acquire("worker_1"))
                .isInstanceOf(RateLimitedException.class)
                .isInstanceOf(MeroToolsException.class)
                .hasMessage("Context 'worker_1' exceeded its rate limit of 3 calls per minute. Wait 20 second(s) "
                        + "before calling again; calls made sooner are refused the same way.")
                .satisfies(thrown -> {
                    RateLimitedException limited = (RateLimitedException) thrown;
                    assertThat(limited.retryAfterSeconds()).isEqualTo(20);
                    assertThat(limited.errorCode()).isEqualTo("rate_limited");
                    assertThat(limited.isDenial()).isTrue();
                });
    }

    @Test
    void refillsAtTheConfiguredRateAndNeverBeyondTheBurst() {
        RateLimiter limiter = RateLimiter.of(RateLimit.perMinute(3), ticker);
        drain(limiter);

        ticker.advance(Duration.ofSeconds(19));
        assertThat(limiter.tryAcquire()).isFalse();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(limiter.tryAcquire()).isTrue();
        assertThat(limiter.tryAcquire()).isFalse();

        ticker.advance(Duration.ofHours(5));
        assertThat(limiter.availablePermits()).isEqualTo(3);
        drain(limiter);
        assertThat(limiter.availablePermits()).isZero();
    }

    @Test
    void aRefusedCallTakesNothingSoWaitingTheAdvertisedTimeIsEnough() {
        RateLimiter limiter = RateLimiter.of(RateLimit.perSecond(2).withBurst(1), ticker);
        limiter.acquire("w");

        int retryAfter = 0;
        for (int i = 0; i < 5; i++) {
            try {
                limiter.acquire("w");
            } catch (RateLimitedException limited) {
                retryAfter = limited.retryAfterSeconds();
            }
        }

        assertThat(retryAfter).isEqualTo(1);
        ticker.advance(Duration.ofMillis(500));
        assertThatCode(() -> limiter.acquire("w")).doesNotThrowAnyException();
    }

    @Test
    void retryAfterIsTheWaitRoundedUpToWholeSeconds() {
        RateLimiter limiter = RateLimiter.of(RateLimit.of(1, Duration.ofSeconds(10)), ticker);
        limiter.acquire("w");

        assertThat(retryAfter(limiter)).isEqualTo(10);
        ticker.advanceNanos(1);
        assertThat(retryAfter(limiter)).isEqualTo(10); // 9.999999999 s rounds up
        ticker.advance(Duration.ofMillis(999));
        assertThat(retryAfter(limiter)).isEqualTo(10);
        ticker.advanceNanos(999_999); // exactly 9 s left
        assertThat(retryAfter(limiter)).isEqualTo(9);
        ticker.advance(Duration.ofMillis(8_999));
        assertThat(retryAfter(limiter)).isEqualTo(1); // 1 ms left still says 1 second, never 0
        ticker.advance(Duration.ofMillis(1));
        assertThat(limiter.tryAcquire()).isTrue();
    }

    @Test
    void fractionalRefillIsExact() {
        // 3 permits per second: one permit every 333,333,333.3 ns
        RateLimiter limiter = RateLimiter.of(RateLimit.perSecond(3).withBurst(1), ticker);
        limiter.acquire("w");

        ticker.advanceNanos(333_333_333);
        assertThat(limiter.tryAcquire()).isFalse();
        ticker.advanceNanos(1);
        assertThat(limiter.tryAcquire()).isTrue();
    }

    @Test
    void aClockThatStepsBackAddsNothing() {
        RateLimiter limiter = RateLimiter.of(RateLimit.perSecond(1), ticker);
        limiter.acquire("w");

        ticker.advance(Duration.ofSeconds(-30));
        assertThat(limiter.tryAcquire()).isFalse();
        ticker.advance(Duration.ofSeconds(1));
        assertThat(limiter.tryAcquire()).isFalse(); // still 29 s behind the last reading
        ticker.advance(Duration.ofSeconds(30));
        assertThat(limiter.tryAcquire()).isTrue();
    }

    @Test
    void concurrentCallersNeverTakeMoreThanTheBucketHolds() throws Exception {
        int capacity = 200;
        int threads = 8;
        int attemptsPerThread = 100;
        RateLimiter limiter = RateLimiter.of(RateLimit.perHour(capacity), ticker);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> granted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                granted.add(pool.submit(() -> {
                    start.await();
                    int mine = 0;
                    for (int i = 0; i < attemptsPerThread; i++) {
                        try {
                            limiter.acquire("w");
                            mine++;
                        } catch (RateLimitedException expected) {
                            assertThat(expected.retryAfterSeconds()).isEqualTo(18);
                        }
                    }
                    return mine;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> future : granted) {
                total += future.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(capacity);
        } finally {
            pool.shutdownNow();
        }
        assertThat(limiter.availablePermits()).isZero();
    }

    @Test
    void describesItself() {
        RateLimiter limiter = RateLimiter.of(RateLimit.perMinute(2), ticker);
        limiter.acquire("w");

        assertThat(limiter.limit()).isEqualTo(RateLimit.perMinute(2));
        assertThat(limiter).hasToString("RateLimiter{2 calls per minute, available=1}");
    }

    @Test
    void theExceptionRejectsANonPositiveWait() {
        assertThatThrownBy(() -> new RateLimitedException("wait", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("retryAfterSeconds must be at least 1, was 0");
    }

    private static void drain(RateLimiter limiter) {
        while (limiter.tryAcquire()) {
            // take every permit
        }
    }

    private static int retryAfter(RateLimiter limiter) {
        try {
            limiter.acquire("w");
        } catch (RateLimitedException limited) {
            return limited.retryAfterSeconds();
        }
        throw new AssertionError("expected the call to be refused");
    }
}
