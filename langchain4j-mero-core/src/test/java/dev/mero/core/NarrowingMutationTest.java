package dev.mero.core;

import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Narrowing edges PIT showed untested: unknown entries in per-entry requests, equal limits, shared budget. */
class NarrowingMutationTest {

    @TempDir
    Path tmp;

    SecurityContext manager;
    RetryBudget budget;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        Path ws = Files.createDirectories(root.resolve("ws"));
        Path docs = Files.createDirectories(root.resolve("docs"));
        budget = RetryBudget.builder().maxFailures(2).build();
        manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .path(PathEntry.of(docs.toString(), "docs", READ))
                .scopes("files:*:*", "commands:command:execute")
                .rateLimit(RateLimit.perMinute(3))
                .retryBudget(budget)
                .build();
    }

    @Test
    void perEntryRequestsForAnUnknownEntryFailAtBuild() {
        String unknown = "Cannot narrow context 'manager' into 'w': it has no entry '/missing' (entries: '/ws', '/docs')";

        assertThatThrownBy(() -> manager.narrow("w").allow("missing", READ).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(unknown);
        assertThatThrownBy(() -> manager.narrow("w").deny("missing", WRITE).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(unknown);
        assertThatThrownBy(() -> manager.narrow("w").requireApproval("missing", WRITE).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage(unknown);
    }

    @Test
    void aScopeOutsideTheParentsGrantsIsRefusedListingThem() {
        assertThatThrownBy(() -> manager.narrow("w").scopes("admin:*:*").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot widen context 'manager' into 'w': scope 'admin:*:*' is not included in any of the "
                        + "parent's grants ['files:*:*', 'commands:command:execute']. A narrowed context can only take "
                        + "away.");
    }

    @Test
    void aChildMayKeepExactlyTheParentsRateAndBurst() {
        SecurityContext child = manager.narrow("w").rateLimit(RateLimit.perMinute(3)).build();

        assertThat(child.rateLimiter()).hasValueSatisfying(l -> assertThat(l.limit()).isEqualTo(RateLimit.perMinute(3)));
        assertThatThrownBy(() -> manager.narrow("w").rateLimit(RateLimit.perMinute(3).withBurst(4)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(burst 4) exceeds the parent's");
    }

    @Test
    void theChildSharesTheParentsRetryBudget() {
        SecurityContext child = manager.narrow("w").build();

        assertThat(child.retryBudget()).containsSame(budget);
    }
}
