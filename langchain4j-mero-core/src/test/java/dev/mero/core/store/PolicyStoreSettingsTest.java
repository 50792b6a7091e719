package dev.mero.core.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The settings of a shared store: credentials kept out of the URL, bounded time-outs, value semantics. */
class PolicyStoreSettingsTest {

    private static PolicyStoreSettings.Builder full() {
        return PolicyStoreSettings.builder().url("jdbc:postgresql://db:5432/agents").user("mero")
                .password("s3cret").migrate(true).timeout(Duration.ofSeconds(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://db:5432/agents",
            "jdbc:postgresql://db/agents@archive", // an '@' after the host names no user
            "jdbc:postgresql://db/agents?application_name=a@b",
            "//db/agents@archive",
            "jdbc:test:mail@host"})
    void aUrlWithoutUserInfoIsKeptAsGiven(String url) {
        assertThat(PolicyStoreSettings.builder().url(url).build().url()).isEqualTo(url);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "jdbc:postgresql://mero:pw@db/agents",
            "jdbc:postgresql://mero@db",
            "//mero:pw@db/agents",
            "jdbc:postgresql://db/agents?PASSWORD=pw"})
    void aUrlWithUserInfoOrAPasswordIsRefused(String url) {
        assertThatThrownBy(() -> PolicyStoreSettings.builder().url(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not carry a password or user info")
                .hasMessageNotContaining("pw");
    }

    @Test
    void theTimeoutIsBoundedInclusively() {
        assertThat(PolicyStoreSettings.builder().url("jdbc:test:x").build().timeout())
                .isEqualTo(PolicyStoreSettings.DEFAULT_TIMEOUT);
        assertThat(PolicyStoreSettings.builder().url("jdbc:test:x").timeout(Duration.ofMillis(1)).build()
                .timeout()).isEqualTo(Duration.ofMillis(1));
        assertThat(PolicyStoreSettings.builder().url("jdbc:test:x").timeout(Duration.ofMinutes(10)).build()
                .timeout()).isEqualTo(Duration.ofMinutes(10));
        for (Duration outside : new Duration[] {Duration.ofNanos(999_999), Duration.ofMinutes(10).plusNanos(1)}) {
            assertThatThrownBy(() -> PolicyStoreSettings.builder().timeout(outside))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("between 1 ms and 10 minutes");
        }
    }

    @Test
    void settingsAreEqualExactlyWhenEveryFieldIs() {
        PolicyStoreSettings settings = full().build();

        assertThat(settings).isEqualTo(full().build()).hasSameHashCodeAs(full().build());
        assertThat(settings).isNotEqualTo(full().url("jdbc:postgresql://db:5432/other").build())
                .isNotEqualTo(full().user("other").build())
                .isNotEqualTo(full().user(null).build())
                .isNotEqualTo(full().password("other").build())
                .isNotEqualTo(full().migrate(false).build())
                .isNotEqualTo(full().timeout(Duration.ofSeconds(3)).build())
                .isNotEqualTo("jdbc:postgresql://db:5432/agents");
        assertThat(settings.hashCode()).isNotEqualTo(full().url("jdbc:test:y").build().hashCode());
    }

    @Test
    void toStringNamesEverythingButThePassword() {
        assertThat(full().build().toString()).contains("jdbc:postgresql://db:5432/agents", "mero", "password=***")
                .doesNotContain("s3cret");
        assertThat(PolicyStoreSettings.builder().url("jdbc:test:x").build().toString()).contains("password=none");
    }
}
