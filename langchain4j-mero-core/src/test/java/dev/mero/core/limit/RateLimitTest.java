package dev.mero.core.limit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateLimitTest {

    static Stream<Arguments> descriptions() {
        return Stream.of(
                Arguments.of(RateLimit.perMinute(60), "60 calls per minute"),
                Arguments.of(RateLimit.perSecond(1), "1 call per second"),
                Arguments.of(RateLimit.perHour(1000), "1000 calls per hour"),
                Arguments.of(RateLimit.of(10, Duration.ofSeconds(10)), "10 calls per 10 seconds"),
                Arguments.of(RateLimit.of(5, Duration.ofMinutes(5)), "5 calls per 5 minutes"),
                Arguments.of(RateLimit.of(3, Duration.ofMillis(1500)), "3 calls per 1500 milliseconds"),
                Arguments.of(RateLimit.of(3, Duration.ofNanos(1_500_001)), "3 calls per 1500001 nanoseconds"),
                Arguments.of(RateLimit.of(10, Duration.ofSeconds(10)).withBurst(3),
                        "10 calls per 10 seconds, in bursts of at most 3"));
    }

    @ParameterizedTest
    @MethodSource("descriptions")
    void describesItselfInWords(RateLimit limit, String description) {
        assertThat(limit.describe()).isEqualTo(description);
        assertThat(limit).hasToString("RateLimit{" + description + "}");
    }

    @Test
    void burstDefaultsToPermitsAndCanBeChanged() {
        RateLimit limit = RateLimit.perMinute(60);

        assertThat(limit.permits()).isEqualTo(60);
        assertThat(limit.per()).isEqualTo(Duration.ofMinutes(1));
        assertThat(limit.burst()).isEqualTo(60);
        assertThat(limit.withBurst(5).burst()).isEqualTo(5);
        assertThat(limit.withBurst(60)).isEqualTo(limit).hasSameHashCodeAs(limit);
    }

    @Test
    void rejectsOutOfRangeValues() {
        assertThatThrownBy(() -> RateLimit.perMinute(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Rate limit permits must be between 1 and 1000000, was 0");
        assertThatThrownBy(() -> RateLimit.perSecond(1_000_001))
                .hasMessage("Rate limit permits must be between 1 and 1000000, was 1000001");
        assertThatThrownBy(() -> RateLimit.perSecond(5).withBurst(-1))
                .hasMessage("Rate limit burst must be between 1 and 1000000, was -1");
        assertThatThrownBy(() -> RateLimit.of(1, Duration.ofNanos(999_999)))
                .hasMessage("Rate limit period must be between 1 ms and 1 hour, was PT0.000999999S");
        assertThatThrownBy(() -> RateLimit.of(1, Duration.ofDays(1)))
                .hasMessage("Rate limit period must be between 1 ms and 1 hour, was PT24H");
        assertThatThrownBy(() -> RateLimit.of(1, null)).isInstanceOf(NullPointerException.class);
    }
}
