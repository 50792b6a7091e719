package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Session ownership: only the opener uses a session, each principal holds a bounded number, idle ones expire. */
class SessionOwnersTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T12:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final SessionOwners owners = new SessionOwners(2, Duration.ofMinutes(30), clock);

    @Test
    void onlyTheOpenerUsesASession() {
        owners.opened("s1", "alice");

        assertThat(owners.owns("s1", "alice")).isTrue();
        assertThat(owners.owns("s1", "bob")).isFalse();
        assertThat(owners.owns("s2", "alice")).isFalse();
    }

    @Test
    void aPrincipalHoldsAtMostItsBoundAndClosingFreesOne() {
        owners.opened("s1", "alice");
        owners.opened("s2", "alice");
        owners.opened("s2", "alice"); // the same id twice counts once

        assertThat(owners.mayOpen("alice")).isFalse();
        assertThat(owners.mayOpen("bob")).isTrue();
        owners.closed("s1");
        owners.closed("s1");
        assertThat(owners.mayOpen("alice")).isTrue();
        assertThat(owners.owns("s1", "alice")).isFalse();
    }

    @Test
    void anIdleSessionExpiresAndOneInUseStays() {
        owners.opened("old", "alice");
        now.set(now.get().plus(Duration.ofMinutes(20)));
        owners.opened("busy", "alice");
        now.set(now.get().plus(Duration.ofMinutes(20)));
        assertThat(owners.owns("busy", "alice")).isTrue();
        now.set(now.get().plus(Duration.ofMinutes(20)));

        assertThat(owners.owns("old", "alice")).as("idle for 60 minutes").isFalse();
        assertThat(owners.owns("busy", "alice")).as("used 20 minutes ago").isTrue();
        assertThat(owners.mayOpen("alice")).isTrue();
        now.set(now.get().plus(Duration.ofMinutes(31)));
        assertThat(owners.owns("busy", "alice")).isFalse();
    }
}
